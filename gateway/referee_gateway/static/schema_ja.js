// The Japanese of the API's texts that the page shows as its own (issue 29 item 5): the help
// of each option and score-helper field (the OpenAPI schemas' descriptions, English), the
// schema checks' messages, and the words of a described chance move. Keyed by the English
// the API sends, so a description changed on the server shows in English until it is
// translated here — tests/test_page_japanese.py walks every form and finds it.

export const DESCRIPTIONS = {
  // Gematon
  "Each seat's track position and pentacle, read off a finished table (GM-5.2); only readings the rules can produce are scored.":
    "終了したテーブルから読み取った各席のトラックの位置とペンタクル（GM-5.2）。ルール上ありうる読み取りだけを得点にします。",
  "the pawn's position (+20 past square 20, GM-5.4)": "ポーンの位置（20マス目を越えたら+20、GM-5.4）",
  "the chips on cells 0..6 of a finished game (GM-1.5, GM-5.1)": "終了時のマス0〜6のチップ（GM-1.5、GM-5.1）",
  "a chip value (GM-1.2: no 3, 6, 9)": "チップの値（GM-1.2：3・6・9はない）",
  "optional: the gauge marker's cell, which is the number of distinct values on the pentacle (GM-3.4); another is refused":
    "任意：ゲージマーカーのマス。ペンタクル上の異なる値の数です（GM-3.4）。それ以外は受け付けません",
  "seats from the first player on (default 1, 2, …): on a tie the later seat ranks higher (GM-5.3)":
    "スタートプレイヤーからの席順（既定は1, 2, …）。同点なら後の席が上位（GM-5.3）",
  "the pentacle's 7 lines, 3 distinct cells 0..6 each, no line twice in any order; default the Fano plane (GM-1.5)":
    "ペンタクルの7本の線。各線は異なる3マス（0〜6）、同じ線は順序を変えても2回不可。既定はファノ平面（GM-1.5）",
  "the value of gauge cells 0..6, each 0 to 1000, non-decreasing; default k (GM-1.6)":
    "ゲージのマス0〜6の価値。各0〜1000で減少しない。既定はk（GM-1.6）",
  "expert rule: witches are drafted (seats N…2 pick, seat 1 gets the last) instead of dealt (GM-2.1)":
    "上級ルール：魔女を配らずにドラフトする（席N…2が選び、席1が残りを取る）（GM-2.1）",
  // Ghostone
  "The escapes a table recorded, in the order they happened. Records the rules cannot produce are refused with their rule (RULES.md).":
    "テーブルで記録した脱出を起きた順に入力します。ルール上ありえない記録は、その規則とともに拒否されます（RULES.md）。",
  "escape points: the rocks on the origin plate before the rock moved (G-5.2)": "脱出点：岩が動く前に元のプレートにあった岩の数（G-5.2）",
  "optional: the plate the piece escaped to, each at most once": "任意：駒が脱出したプレート（各プレート1回まで）",
  // Gizmos
  "What a table reads off at the end (Z-11). A tally the rules cannot produce (a card listed twice, more spheres than the Storage Limit, more VP tokens than the gizmos give…) is refused with its rule (RULES.md, the score helper).":
    "終了時にテーブルから読み取る内容（Z-11）。ルール上ありえない集計（同じカードを2回、保管上限を超えるエナジー、ギズモが与えるより多いVPトークンなど）は、その規則とともに拒否されます（RULES.md、得点計算）。",
  "ids of the seat's built gizmos (Z-15); the starting gizmo may be listed or left out": "その席が組み立てたギズモの番号（Z-15）。初期ギズモは入れても入れなくても構いません",
  "total value of its VP tokens": "VPトークンの合計値",
  "spheres left in its ring": "リングに残ったエナジー",
  "the seats in turn order, first player first (default 1, 2, …)": "手番順の席（スタートプレイヤーから。既定は1, 2, …）",
  "Z-3.4 item 7: the cards a Research draws are shown to every seat, as BGA does; by default (false) only the researching seat sees them while it decides (the official rules are silent; see RULES.md)":
    "Z-3.4 第7項：リサーチで引いたカードを全席に見せる（BGAと同じ）。既定（オフ）では、選んでいる間リサーチする席だけが見ます（公式ルールに記載なし。RULES.md参照）",
  // Three Magic
  "A winning hand as the table reads it off (T-7). Input no table can read off (a riichi without its stake, a field no calls make…) is refused with its rule (RULES.md, score helper).":
    "テーブルから読み取った和了の手（T-7）。ありえない入力（供託のないリーチ、鳴きで作れない場など）は、その規則とともに拒否されます（RULES.md、得点計算）。",
  "the discarder's attribute: ron only": "放銃者の属性（ロンのみ）",
  "the hand's spells in its fixed order, the winning card included": "手のスペル（決まった順、和了牌を含む）",
  "3 cards of one attribute reading one of the 13 patterns (T-2.1)": "同じ属性の3枚で、13の型のどれかになるもの（T-2.1）",
  "a mana card: R (fire), B (water) or G (wood), a number 0–4, * when starred (T-1.2)":
    "マナカード：R（火）、B（水）、G（木）のどれかと数字0〜4、星付きなら *（T-1.2）",
  "the called spells, in the order they were called (default none)": "鳴いたスペル（鳴いた順。既定はなし）",
  "the card that completed the hand": "手を完成させたカード",
  "every catalyst indicator turned this match, 1st first: the others were turned by riichis":
    "この局でめくった触媒表示すべて（1枚目から。2枚目以降はリーチでめくったもの）",
  "whether the winner declared riichi (default false)": "和了者がリーチを宣言したか（既定はいいえ）",
  "od on the field: riichi stakes and call costs (default 0)": "場のod：リーチの供託と鳴きの支払い（既定は0）",
  "od in the pool as it stood before the match (default 0)": "局の前のプールのod（既定は0）",
  "the attribute of seats 1, 2, 3 (default the option's)": "席1・2・3の属性（既定はオプションの値）",
  "game options: the scoring tables, starting od, unused cards (default the game's)": "ゲームのオプション：得点表、開始時のod、未使用カード（既定はゲームの値）",
  "attribute of seats 1, 2, 3: a permutation of fire, water, wood (T-1.1); the fire seat is the first manager":
    "席1・2・3の属性：火・水・木の並べ替え（T-1.1）。火の席が最初のマネージャー",
  "od each seat starts with, 0–100000 (T-1.3)": "各席の開始時のod（0〜100000、T-1.3）",
  "cards set aside as the unused pile, 1–30; its top card is the 1st indicator (T-3.3)": "未使用の山として除けるカード（1〜30枚）。一番上が1枚目の表示（T-3.3）",
  "the game ends when the manager role would pass back to the first manager for this many times, 1–20 (T-9.1)":
    "マネージャー役が最初のマネージャーにこの回数戻るときにゲーム終了（1〜20、T-9.1）",
  "attribute item for 1, 2, 3 spells (T-7.2)": "スペル1・2・3個の属性の役（T-7.2）",
  "numbers item for 2 and 3 spells with the same numbers: same-number, one-direction, mixed-direction (T-7.2)":
    "同じ数字のスペル2・3個の数字の役：同数、一方向、混合方向（T-7.2）",
  "stars item for 1, 2, 3 all-starred spells (T-7.2)": "すべて星付きのスペル1・2・3個の星の役（T-7.2）",
  // Vectron
  "One settlement read off a real table (V-6.2): the gauges, and the scores before it. Tallies the rules cannot produce (two gauges at 7 or more, scores no run of settlements adds up to, not one score per gauge) are refused with their rule (RULES.md, score helper).":
    "実物のテーブルから読み取った1回の決算（V-6.2）：ゲージとその前の得点。ルール上ありえない集計（7以上のゲージが2つ、決算の積み重ねで作れない得点、ゲージごとに1つでない得点）は、その規則とともに拒否されます（RULES.md、得点計算）。",
  "what each cell holds: a map chip (star1, star2, star3, gate, swap) or a seat's piece (seat1…); each piece once, every chip of map_chips not held (V-1.2, V-2.2)":
    "各マスにあるもの：マップチップ（星1、星2、星3、ゲート、スワップ）か席の駒。駒は1つずつ、マップチップのうち置かれていないものすべて（V-1.2、V-2.2）",
  "each seat's star gauge, seat 1 first": "各席の星ゲージ（席1から）",
  "a star gauge: the turn ends when one reaches 7 and a move adds at most 3 stars, so it is at most 9 (V-4.6, V-5.2)":
    "星ゲージ：どれかが7に達すると手番が終わり、1手で増えるのは3つまでなので最大9（V-4.6、V-5.2）",
  "each seat's score before the settlement, one per gauge (default: all 0)": "決算前の各席の得点（ゲージごとに1つ。既定はすべて0）",
  "below 6: a score of 6 has ended the game (V-6.4)": "6未満：6点でゲームは終わっています（V-6.4）",
  "V-1.3: the 16 map chips by kind (star1, star2, star3, gate, swap); exactly 2 swaps, at least one star2 per seat, at least 1 gate":
    "V-1.3：16枚のマップチップの種類ごとの枚数（星1、星2、星3、ゲート、スワップ）。スワップはちょうど2枚、星2は席ごとに1枚以上、ゲートは1枚以上",
  "V-1.4: the 24 action cards by kind (O1…O3 orthogonal, D1…D3 diagonal, S swap); the O/D cards must let a piece reach a gate whatever the layout (O1 alone does; so does O3 with O2, D1 or D2)":
    "V-1.4：24枚のアクションカードの種類ごとの枚数（O1〜O3は縦横、D1〜D3は斜め、Sはスワップ）。O・Dのカードはどの配置でも駒がゲートに届くこと（O1だけで可。O3とO2、D1、D2のどれかでも可）",
  "V-5.6 Just 3 bonus: named in the manual but its text is lost. The engine calls its hook after every move and at every end of turn, and ships it off: only false is accepted until the rule is known.":
    "V-5.6 ジャスト3ボーナス：説明書に名前はあるが本文が失われています。エンジンは毎手と毎手番の終わりにこの処理を呼びますが、無効のまま出荷しています。規則が分かるまで「いいえ」だけを受け付けます。",
};

/** The schema checks' messages (Python jsonschema's English) in the page's Japanese: each
 *  pattern and its sentence; {1}, {2} are the pattern's groups. */
export const CHECKS = [
  [/^'(.+)' is a required property$/, "「{1}」を入力してください"],
  [/^(.+) is not of type '(\w+)'(?:, '(\w+)')*$/, "{2}の形で入力してください（入力：{1}）"],
  [/^(.+) is greater than the maximum of (.+)$/, "{2}以下にしてください（入力：{1}）"],
  [/^(.+) is less than the minimum of (.+)$/, "{2}以上にしてください（入力：{1}）"],
  [/^(.+) is greater than or equal to the maximum of (.+)$/, "{2}未満にしてください（入力：{1}）"],
  [/^(.+) is less than or equal to the minimum of (.+)$/, "{2}より大きくしてください（入力：{1}）"],
  [/^(.+) is not one of (.+)$/, "選べる値のどれかにしてください（入力：{1}）"],
  [/^(.+) is too long$/, "多すぎます"],
  [/^(.+) is too short$/, "足りません"],
  [/^(.+) should be non-empty$/, "空にはできません"],
  [/^(.+) has non-unique elements$/, "同じものが重なっています"],
  [/^(.+) does not match '(.+)'$/, "形式が正しくありません（入力：{1}）"],
  [/^(.+) is not a multiple of (.+)$/, "{2}の倍数にしてください（入力：{1}）"],
  [/^Additional properties are not allowed/, "知らない項目があります"],
  [/^(.+) is not valid under any of the given schemas$/, "入力が正しくありません（入力：{1}）"],
  [/^(.+) was expected$/, "{1}にしてください"],
];

/** JSON Schema type names in Japanese (for "is not of type"). */
export const TYPES = { integer: "整数", number: "数", string: "文字列", array: "リスト", object: "項目の組",
  boolean: "はい／いいえ", null: "空" };
