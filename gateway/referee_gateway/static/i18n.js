// English and Japanese: the page's own words. Moves and their sentences come from the API
// in the language asked for (Accept-Language); this file holds the rest, and schema_ja.js
// the Japanese of the API's schema texts that the page shows as its own.
import { CHECKS, DESCRIPTIONS, TYPES } from "./schema_ja.js";

const KEY = "referee:lang";

const WORDS = {
  en: {
    skip: "Skip to the table", brand: "tabletop-referee", sound: "Sounds", language: "Language",
    loading: "Loading…", back: "← All tables", "error.title": "Something went wrong",
    seat: "Seat {n}", chance: "chance",
    "mode.digital": "Digital: each player on their own device", "mode.short.digital": "digital",
    "mode.short.tabletop": "tabletop",
    "mode.companion": "Companion: a physical game, each phone keeps its own hand",
    "mode.companion.hint": "Real cards decide. Players join with a code; each enters on their own phone what they draw, the table device what is turned up.",
    "mode.short.companion": "companion",
    "companion.yours": "Enter what you drew: only your phone sees it",
    "companion.seat": "Seat {n} enters their draw",
    "companion.table": "Enter what was turned up (the table device or any seat)",
    "companion.pickTitle": "What did you draw?",
    "companion.pickHint": "Tap the card you really drew. Only your phone sees it; the referee checks every move you make with it.",
    "companion.several": "Pick several at once (a deal)",
    "companion.severalHint": "Tap each card you were dealt (twice for two copies), then enter them: each is entered as the deal comes round to you.",
    "companion.chosen": "Chosen", "companion.remove": "Remove {move}",
    "companion.enter": "Enter the {n} chosen",
    "companion.queued": "{n} more to enter as the deal comes round to you.",
    "companion.cancelQueue": "Do not enter the rest",
    "companion.queueStopped": "“{move}” cannot be entered now, so the rest were not entered: pick again.",
    "companion.takeBack": "Take back my last entry or move",
    "mode.digital.hint": "Players join with a code; the referee deals and rolls.",
    "mode.tabletop": "Tabletop: one device records a physical game",
    "mode.tabletop.hint": "Enter each move and each die or card as it happens at the table.",
    "home.title": "A rules referee for your table",
    "home.lead": "Start a table, join one with its code, or score a finished game. No account needed.",
    "home.start": "Start a table", "home.game": "Game", "home.players": "Players", "home.mode": "How you play",
    "home.public": "List the table in the lobby (digital and companion)", "home.options": "Options",
    "home.noOptions": "This game has no options.", "home.startButton": "Start the table",
    "home.others": "The other seats", "home.others.people": "People (they join with the code)",
    "home.others.random": "Bots: random", "home.others.greedy": "Bots: greedy",
    "home.others.strong": "Bots: strong (thinks ahead)",
    "home.join": "Join a table", "home.code": "Join code",
    "home.codeHint": "8 letters and digits, as read aloud; case, spaces and dashes do not matter.",
    "home.seat": "Seat", "home.anySeat": "Any free seat", "home.joinButton": "Join",
    "home.lobby": "Open tables", "home.lobbyEmpty": "No public table is waiting for players.",
    "home.lobbyTable": "{game} · {players} players · {open} open", "home.refresh": "Refresh",
    "home.calc": "Score helper", "home.calcLead": "Score a game played on a real table: fill in what it ended with.",
    "calc.title": "Score helper: {game}", "calc.lead": "Fill in what the table ended with, then press Score.",
    "calc.submit": "Score", "calc.example": "Fill in the example", "calc.clear": "Clear",
    "calc.scored": "Scored.", "calc.fix": "Some fields need a fix: see the messages beside them.",
    "form.add": "Add to {what}", "form.words": "separated by spaces", "form.item": "{what} {n}", "form.remove": "Remove {what}",
    "play.youSeat": "You are seat {n}", "play.you.table": "This device keeps the table",
    "play.you.spectator": "You are watching", "play.hostLabel": "Seats",
    "play.share": "Invite the players", "play.codeSpoken": "Join code {code}",
    "play.shareHint": "Each player opens this page, chooses Join a table and types the code. The game starts when every seat is taken, or now with the seats taken.",
    "play.takeSeat": "Take seat {n} on this device", "play.startNow": "Start now",
    "play.waitingPlayers": "Waiting for players: {taken} of {total} seats taken",
    "play.over": "Game over", "play.yourTurn": "Your turn",
    "play.enterChance": "Enter what happened at the table", "play.enterMove": "Enter the move of {seats}",
    "play.waiting": "Waiting for {seats}", "play.moves": "Moves", "play.yourMoves": "Your moves",
    "play.movesFor": "Moves of {seats}", "play.chanceTitle": "What happened at the table?",
    "play.chanceHint": "Choose what the die showed or the card drawn. The chance of each is in brackets.",
    "play.filter": "Filter the moves", "play.showAll": "Show all {n} moves",
    "play.picked": "Moves with {what}: {n}", "play.showEvery": "Show every move",
    "play.describe": "Enter the {what}", "play.how": "How", "play.enter": "Enter",
    "play.autoPass": "Pass by itself when passing is my only move",
    "play.several": "Enter several at once",
    "play.severalHint": "Tick what happened in the order it happened (the cards turned up, the cards dealt), then enter them all.",
    "play.severalEnter": "Enter the {n} ticked", "play.severalDoing": "Entering {n} of {of}…",
    "play.severalStopped": "{n} entered; “{move}” is no longer possible here, so the rest were not entered.",
    "play.previewTitle": "Before you confirm", "play.previewHint": "The position this move leads to, before any chance that follows:",
    "play.previewConfirm": "Confirm", "play.previewBack": "Back to the moves",
    "play.otherWays": "The same spheres can pay with other Converters:",
    "play.roundHint": "Pick each seat's outcomes in the order they came (the cards dealt to it); the page enters them in the order the referee asks for them, round the table.",
    "play.roundFor": "Seat {n}", "play.roundChoose": "Add…", "play.roundPicked": "Picked for Seat {n}",
    "play.roundRemove": "Take {what} off", "play.roundLeft": "{n} entered; the referee now asks for Seat {seat}'s, and nothing more was picked for it, so the rest were not entered.",
    "play.undo": "Undo the last entry", "play.redo": "Redo", "play.takeBack": "Take back my move",
    "play.corrections": "Corrections", "play.log": "What happened",
    "play.movedOn": "Someone moved first: here is the table now.",
    "play.device": "This device", "play.leave": "Leave this seat",
    "play.leaveConfirm": "Leave this seat? The game waits until the table gives it back.",
    "play.left": "You left the seat.",
    "play.keep.seat": "This page's address holds your seat's secret token: bookmark it to come back, and do not share it.",
    "play.keep.table": "This page's address holds the table's secret token: it reopens the table in any tab. Bookmark it, and give it only to a device that takes over the table.",
    "play.keep.spectator": "This page's address lets whoever has it watch this table.",
    "play.handOff": "Hand this table to another device",
    "play.handOffHint": "Open this link on the other device, or scan the code with its camera. Every device with the link can enter moves: keep one in use.",
    "play.tableLink": "The table's link", "play.copy": "Copy the link", "play.copied": "Copied.",
    "play.copyByHand": "The link is selected: copy it with your device's menu.",
    "play.qrLabel": "QR code of the table's link",
    "play.pending": "No connection: “{move}” is kept and will be sent once when the connection is back.",
    "play.pendingCancel": "Do not send it",
    "play.pendingDropped": "The position changed while you were offline: “{move}” was not played. Here is the table now.",
    "play.pendingRefused": "“{move}” was not played:",
    "connection.title": "No connection",
    "connection.lost": "No connection to the referee. Nothing is lost: trying again…",
    "connection.retry": "Try now",
    "play.noToken": "This table's token is not in this tab. Open the table's link or your seat's link, or join with the code.",
    "play.ended.revoked": "This seat's token no longer works (it left, or the table gave the seat a new token).",
    "play.ended.end": "The table was closed.",
    "status.taken": "taken", "status.open": "open", "status.absent": "absent", "status.bot": "a bot plays",
    "log.undo": "Undone back to version {to}", "log.redo": "Redone", "log.takeback": "A move was taken back",
    "log.seats": "A seat changed", "log.undone": "undone",
    "log.dispute": "{who} entered a card that contradicts another hand's entries: one of them is wrong; check the hands, then undo the wrong entry",
    "log.by_table": "The table",
    "score.final": "Final score", "score.sofar": "Score so far", "score.winners": "Winner: {seats}",
    "score.line": "{rank}. {seat}: {total}",
    "score.why.first": "The best total.", "score.why.behind": "{gap} behind {seat}.",
    "score.why.tie": "Level with {seat}; the rules' tie-break places it after.",
    "score.why.short": "Less than {seat} in: {parts}.", "score.why.part": "{what} {mine} (against {theirs})",
    "problem.rule": "rule {rule}",
  },
  ja: {
    skip: "テーブルへ移動", brand: "tabletop-referee", sound: "音", language: "言語",
    loading: "読み込み中…", back: "← トップへ", "error.title": "エラーが起きました",
    seat: "プレイヤー{n}", chance: "偶然",
    "mode.digital": "デジタル：各プレイヤーが自分の端末で遊ぶ", "mode.short.digital": "デジタル",
    "mode.short.tabletop": "テーブル",
    "mode.companion": "コンパニオン：実物のゲーム、手札は各自のスマホに",
    "mode.companion.hint": "実物のカードで決まります。コードで参加し、引いたものは各自のスマホで、めくられたものはテーブルの端末で入力します。",
    "mode.short.companion": "コンパニオン",
    "companion.yours": "引いたものを入力してください（見えるのはあなたのスマホだけです）",
    "companion.seat": "プレイヤー{n}が引いたものを入力しています",
    "companion.table": "めくられたものを入力してください（テーブルの端末か、どのプレイヤーでも）",
    "companion.pickTitle": "何を引きましたか？",
    "companion.pickHint": "実際に引いたカードをタップしてください。見えるのはあなたのスマホだけで、そのカードを使う手はすべて審判が確かめます。",
    "companion.several": "まとめて選ぶ（配られた手札）",
    "companion.severalHint": "配られたカードを1枚ずつタップし（同じカード2枚なら2回）、入力してください。配る順番が回ってくるたびに1枚ずつ入力されます。",
    "companion.chosen": "選んだもの", "companion.remove": "{move}を外す",
    "companion.enter": "選んだ{n}件を入力",
    "companion.queued": "あと{n}件、順番が回ってくるたびに入力します。",
    "companion.cancelQueue": "残りを入力しない",
    "companion.queueStopped": "「{move}」は今は入力できないため、残りは入力していません。選び直してください。",
    "companion.takeBack": "自分の直前の入力か手を戻す",
    "mode.digital.hint": "コードで参加します。配る・振るのは審判が行います。",
    "mode.tabletop": "テーブル：実物のゲームを1台で記録する",
    "mode.tabletop.hint": "手番の手、ダイスの目や引いたカードを起きた通りに入力します。",
    "home.title": "あなたのテーブルのルール審判",
    "home.lead": "テーブルを始める、コードで参加する、終わったゲームの得点を数える。アカウントは不要です。",
    "home.start": "テーブルを始める", "home.game": "ゲーム", "home.players": "人数", "home.mode": "遊び方",
    "home.public": "ロビーに公開する（デジタルとコンパニオン）", "home.options": "オプション",
    "home.noOptions": "このゲームにオプションはありません。", "home.startButton": "テーブルを始める",
    "home.others": "ほかの席", "home.others.people": "人（参加コードで参加）",
    "home.others.random": "ボット：ランダム", "home.others.greedy": "ボット：貪欲",
    "home.others.strong": "ボット：強い（先読みする）",
    "home.join": "テーブルに参加", "home.code": "参加コード",
    "home.codeHint": "英数字8文字。大文字小文字・空白・ハイフンは区別しません。",
    "home.seat": "席", "home.anySeat": "空いている席", "home.joinButton": "参加",
    "home.lobby": "参加者募集中のテーブル", "home.lobbyEmpty": "募集中の公開テーブルはありません。",
    "home.lobbyTable": "{game}・{players}人・空き{open}", "home.refresh": "更新",
    "home.calc": "得点計算", "home.calcLead": "実物のテーブルで遊んだゲームの終了時の状態を入力して得点を出します。",
    "calc.title": "得点計算：{game}", "calc.lead": "終了時の状態を入力して「計算」を押してください。",
    "calc.submit": "計算", "calc.example": "例を入力", "calc.clear": "消去",
    "calc.scored": "計算しました。", "calc.fix": "直す必要がある項目があります。各項目の横のメッセージを見てください。",
    "form.add": "{what}を追加", "form.words": "空白で区切る", "form.item": "{what} {n}", "form.remove": "{what}を削除",
    "play.youSeat": "あなたはプレイヤー{n}", "play.you.table": "この端末がテーブルを管理",
    "play.you.spectator": "観戦中", "play.hostLabel": "席",
    "play.share": "プレイヤーを招待", "play.codeSpoken": "参加コード {code}",
    "play.shareHint": "各プレイヤーはこのページを開き「テーブルに参加」でコードを入力します。全席が埋まるか「今すぐ始める」で開始します。",
    "play.takeSeat": "この端末でプレイヤー{n}の席に着く", "play.startNow": "今すぐ始める",
    "play.waitingPlayers": "参加待ち：{total}席中{taken}席",
    "play.over": "ゲーム終了", "play.yourTurn": "あなたの番です",
    "play.enterChance": "テーブルで起きたことを入力してください", "play.enterMove": "{seats}の手を入力してください",
    "play.waiting": "{seats}を待っています", "play.moves": "手", "play.yourMoves": "あなたの手",
    "play.movesFor": "{seats}の手", "play.chanceTitle": "テーブルで何が起きましたか？",
    "play.chanceHint": "ダイスの目や引いたカードを選んでください。括弧内はその確率です。",
    "play.filter": "手を絞り込む", "play.showAll": "全{n}手を表示",
    "play.picked": "{what}に関わる手：{n}", "play.showEvery": "すべての手を表示",
    "play.describe": "{what}を入力", "play.how": "入力方法", "play.enter": "入力",
    "play.how.layout": "シャッフルした盤の16マス a1〜d4 それぞれに、下に並んだチップか席の駒を1つずつ選んでください。並んだものをちょうど使い切ります（V-2.2）。",
    "play.autoPass": "パスしか選べないときは自動でパス",
    "play.several": "まとめて入力する",
    "play.severalHint": "起きたこと（めくったカード、配ったカード）を起きた順にチェックし、まとめて入力します。",
    "play.severalEnter": "チェックした{n}件を入力", "play.severalDoing": "{of}件中{n}件目を入力中…",
    "play.severalStopped": "{n}件を入力しました。「{move}」はもう選べないため、残りは入力していません。",
    "play.previewTitle": "確定の前に", "play.previewHint": "この手で局面は次のようになります（その後の偶然の前）：",
    "play.previewConfirm": "確定する", "play.previewBack": "手の一覧に戻る",
    "play.otherWays": "同じエネルギーを別のコンバーターで支払うこともできます：",
    "play.roundHint": "各プレイヤーの結果（配られたカード）を起きた順に選んでください。審判が尋ねる順（テーブルを一周する順）に入力します。",
    "play.roundFor": "プレイヤー{n}", "play.roundChoose": "追加…", "play.roundPicked": "プレイヤー{n}に選んだもの",
    "play.roundRemove": "{what}を取り消す", "play.roundLeft": "{n}件を入力しました。審判はいまプレイヤー{seat}の分を尋ねていますが、選ばれたものが残っていないため、残りは入力していません。",
    "play.undo": "直前の入力を取り消す", "play.redo": "やり直す", "play.takeBack": "自分の手を戻す",
    "play.corrections": "訂正", "play.log": "経過",
    "play.movedOn": "先に他の手が入りました。現在の状態を表示します。",
    "play.device": "この端末", "play.leave": "席を離れる",
    "play.leaveConfirm": "席を離れますか？テーブルが席を戻すまでゲームは止まります。",
    "play.left": "席を離れました。",
    "play.keep.seat": "このページのアドレスにはあなたの席の秘密のトークンが入っています。戻るためにブックマークし、他人に教えないでください。",
    "play.keep.table": "このページのアドレスにはテーブルの秘密のトークンが入っています。どのタブでもこのアドレスでテーブルを開き直せます。ブックマークし、テーブルを引き継ぐ端末にだけ渡してください。",
    "play.keep.spectator": "このページのアドレスを知っている人はこのテーブルを観戦できます。",
    "play.handOff": "このテーブルを別の端末に引き継ぐ",
    "play.handOffHint": "別の端末でこのリンクを開くか、カメラでコードを読み取ってください。リンクを持つ端末はどれも手を入力できます。使うのは1台にしてください。",
    "play.tableLink": "テーブルのリンク", "play.copy": "リンクをコピー", "play.copied": "コピーしました。",
    "play.copyByHand": "リンクを選択しました。端末のメニューでコピーしてください。",
    "play.qrLabel": "テーブルのリンクのQRコード",
    "play.pending": "接続がありません。「{move}」は保存され、接続が戻ったときに一度だけ送られます。",
    "play.pendingCancel": "送らない",
    "play.pendingDropped": "オフラインの間に局面が変わったため、「{move}」は打たれませんでした。現在の状態を表示します。",
    "play.pendingRefused": "「{move}」は打たれませんでした：",
    "connection.title": "接続がありません",
    "connection.lost": "審判に接続できません。データは失われていません。再接続しています…",
    "connection.retry": "今すぐ再試行",
    "play.noToken": "このタブにはこのテーブルのトークンがありません。テーブルのリンクか自分の席のリンクを開くか、コードで参加してください。",
    "play.ended.revoked": "この席のトークンは使えなくなりました（席を離れたか、新しいトークンが発行されました）。",
    "play.ended.end": "テーブルは終了しました。",
    "status.taken": "着席", "status.open": "空き", "status.absent": "不在", "status.bot": "ボットが担当",
    "log.undo": "バージョン{to}まで取り消し", "log.redo": "やり直し", "log.takeback": "手が戻されました",
    "log.seats": "席が変わりました", "log.undone": "取り消し済み",
    "log.dispute": "{who}の入力がほかの手札の入力と食い違いました。どちらかが間違っています。手札を確かめて、間違った入力を取り消してください",
    "log.by_table": "テーブル",
    "score.final": "最終得点", "score.sofar": "現在の得点", "score.winners": "勝者：{seats}",
    "score.line": "{rank}位 {seat}：{total}",
    "score.why.first": "最高の合計です。", "score.why.behind": "{seat}より{gap}少ない。",
    "score.why.tie": "{seat}と同点ですが、ルールの同点処理で後になります。",
    "score.why.short": "下回った項目：{parts}。", "score.why.part": "{what} {mine}（相手は{theirs}）",
    "problem.rule": "規則 {rule}",
    // a problem whose detail came in English: the page's own words for its code
    "problem.other": "できませんでした。",
    "problem.code.already_started": "ゲームはもう始まっています。",
    "problem.code.bad_request": "リクエストが正しくありません。",
    "problem.code.forbidden": "このトークンではできません。",
    "problem.code.game_over": "ゲームは終わっています。",
    "problem.code.idempotency_conflict": "同じ送信が別の内容で使われました。",
    "problem.code.not_your_entry": "この結果は受け取る席の端末で入力します。",
    "problem.code.impossible_entry": "その入力はありえません。",
    "problem.code.entry_conflict": "その入力はほかの入力と食い違います。",
    "problem.code.invalid_ticket": "ストリームのチケットが無効です。もう一度つなぎ直してください。",
    "problem.code.illegal_move": "ルール上できない手です。",
    "problem.code.internal_error": "審判の内部で問題が起きました。",
    "problem.code.invalid_input": "ありえない入力です。",
    "problem.code.invalid_json": "送った内容が読めません。",
    "problem.code.invalid_options": "オプションが正しくありません。",
    "problem.code.invalid_players": "この人数では遊べません。",
    "problem.code.invalid_state": "ゲームの状態に矛盾があります。",
    "problem.code.method_not_allowed": "この操作はできません。",
    "problem.code.no_bot": "この席はボットが担当していません。",
    "problem.code.no_such_seat": "このテーブルにその席はありません。",
    "problem.code.nobody_seated": "まだ誰も着席していません。先に参加コードを伝えてください。",
    "problem.code.not_found": "見つかりません。",
    "problem.code.not_started": "ゲームはまだ始まっていません。",
    "problem.code.not_your_turn": "この席の番ではありません。",
    "problem.code.nothing_to_redo": "やり直せるものはありません。",
    "problem.code.nothing_to_undo": "取り消せるものはありません。",
    "problem.code.payload_too_large": "送る内容が大きすぎます。",
    "problem.code.rate_limited": "操作が多すぎます。少し待ってからやり直してください。",
    "problem.code.seat_taken": "その席はもう埋まっています。",
    "problem.code.service_unavailable": "審判の一部が応答していません。少し待ってからやり直してください。",
    "problem.code.session_conflict": "このテーブルでは今それはできません。",
    "problem.code.table_full": "空いている席はありません。",
    "problem.code.takeback_after_chance": "その後に偶然の結果が出たので、手は戻せません。",
    "problem.code.takeback_game_over": "ゲームが終わったので、手は戻せません。",
    "problem.code.takeback_hidden_information": "その手で隠れた情報が明かされたので、戻せません。",
    "problem.code.takeback_not_last_move": "戻せるのは直前の自分の手だけです。",
    "problem.code.unauthorized": "トークンがないか、知らないトークンです。",
    "problem.code.undo_target_invalid": "そのバージョンには戻れません。",
    "problem.code.unknown_field": "知らない項目があります。",
    "problem.code.unknown_game": "知らないゲームです。",
    "problem.code.unknown_join_code": "この参加コードのテーブルはありません（始まったか期限が切れた可能性があります）。",
    "problem.code.unknown_session": "テーブルがないか、期限が切れました。",
    "problem.code.unprocessable": "ルールに反しています。",
    "problem.code.unsupported_media_type": "送る形式が正しくありません。",
    "problem.code.version_conflict": "先に他の手が入りました。",
  },
};

// Field names of the schemas (score helper, options, breakdowns), where a word reads better.
const FIELDS = {
  ja: {
    players: "人数", escapes: "脱出", seat: "席", points: "得点", plate: "プレート", seats: "各席",
    track: "トラック", pentacle: "ペンタクル", gauge: "ゲージ", turn_order: "手番順", gauges: "ゲージ",
    scores: "得点", built: "組み立てたギズモ", vp_tokens: "VPトークン", energy: "エネルギー",
    win: "和了", winner_attribute: "勝者の属性", discarder_attribute: "放銃者の属性", spells: "スペル",
    called: "鳴いたスペル", winning_card: "和了牌", indicators: "触媒表示", riichi: "リーチ",
    field: "場", pool: "プール", attributes: "属性", options: "オプション", total: "合計",
    breakdown: "内訳", bonus: "ボーナス", draft: "ドラフト", rotations: "周回数",
    // options
    pentacle_lines: "ペンタクルの線", blessing_values: "祝福の値", research_draws_public: "リサーチで引いたカードを公開",
    starting_od: "開始時のod", unused_cards: "未使用カード", attribute_points: "属性の役",
    number_points: "数字の役", same: "同数", sequence: "一方向", mixed: "混合方向", star_points: "星の役",
    map_chips: "マップチップ", action_cards: "アクションカード", just3_bonus: "ジャスト3ボーナス",
    star1: "星1", star2: "星2", star3: "星3", gate: "ゲート", swap: "スワップ",
    // score breakdowns
    cells: "マス", cover: "カバー", gauge_cell: "ゲージのマス", line_points: "線の得点", lines: "線",
    nine: "ナイン", pattern: "型", patterns: "型", pure: "ピュア", values: "値", witch: "魔女",
    escape_points: "脱出点", energy_left: "残りのエネルギー", generic: "通常", gizmos_built: "組み立てたギズモ",
    printed: "印刷された点", turn_position: "手番の位置", attribute: "属性", change: "増減", role: "役割",
    before: "前", ended: "終了", gain: "獲得", rank: "順位", od: "od", reason: "理由",
    // a described chance move (Vectron's layout)
    layout: "配置", chips: "チップ", pieces: "駒",
  },
};

// English labels that humanizing a key gets wrong.
FIELDS.en = { vp_tokens: "VP tokens", od: "Od", starting_od: "Starting od", layout: "layout" };

const TITLES = { ja: { ghostone: "ゴーストーン", gematon: "ゲマトン", gizmos: "ギズモ",
  threemagic: "スリーマジック", vectron: "ベクトロン" } };

const VALUES = { ja: { fire: "火", water: "水", wood: "木", ron: "ロン", tsumo: "ツモ", true: "はい", false: "いいえ",
  cover: "カバー", nine: "ナイン", none: "なし", pure: "ピュア", payer: "支払う側", winner: "和了者",
  star1: "星1", star2: "星2", star3: "星3", gate: "ゲート", swap: "スワップ",
  seat1: "プレイヤー1の駒", seat2: "プレイヤー2の駒", seat3: "プレイヤー3の駒", seat4: "プレイヤー4の駒" },
  en: { true: "yes", false: "no" } };

export function lang() {
  const chosen = localStorage.getItem(KEY);
  if (chosen === "en" || chosen === "ja") return chosen;
  const wanted = navigator.languages || [navigator.language || "en"];
  return wanted.some((l) => l.toLowerCase().startsWith("ja")) && !wanted[0].toLowerCase().startsWith("en") ? "ja" : "en";
}

export function setLang(value) {
  localStorage.setItem(KEY, value);
}

/** The page's word for key, with {name}s filled in. */
export function t(key, values = {}) {
  const text = WORDS[lang()][key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

/** The static page's words (data-i18n), and its language for screen readers. */
export function translatePage() {
  document.documentElement.lang = lang();
  for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
}

/** A schema's field name as a label: "winner_attribute" → "Winner attribute" (or 勝者の属性). */
export function fieldLabel(key) {
  const own = (FIELDS[lang()] || {})[key];
  if (own) return own;
  const words = String(key).replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One of a list's items: "Seats" → "Seat" (English only). */
export function singular(label) {
  return lang() === "en" ? label.replace(/([^s])s$/, "$1") : label;
}

export function valueLabel(value) {
  if (value === null || value === undefined) return "—";
  return (VALUES[lang()] || {})[String(value)] ?? String(value);
}

export function gameTitle(info) {
  return (TITLES[lang()] || {})[info.game] || info.title || info.game;
}

/** A move as a person reads it: the API's sentence, or its fields where it has none. */
export function moveText(move) {
  const text = move.text;
  if (typeof text === "string" && text && !text.startsWith("{")) return text;
  const fields = Object.entries(move).filter(([key]) => !["type", "text", "p", "seat"].includes(key))
    .map(([key, value]) => `${fieldLabel(key).toLowerCase()} ${Array.isArray(value) ? value.join(" ") : typeof value === "object" ? JSON.stringify(value) : value}`);
  const who = move.seat === "chance" ? t("chance") : move.seat !== undefined ? t("seat", { n: move.seat }) : "";
  return `${who ? `${who}: ` : ""}${move.type}${fields.length ? ` · ${fields.join(" · ")}` : ""}`;
}

// a text with a kana or kanji in it is Japanese already (the server's own, since issue 29)
const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uff01-\uff5e]/;

/** The page's own Japanese for an English text, when the page is Japanese. */
const inEnglish = (text) => lang() === "ja" && typeof text === "string" && !JAPANESE.test(text);

/** A problem as one sentence: the API's detail as given (in the page's language, asked by
 *  Accept-Language) and the rule it names; a detail that came in English on a Japanese page
 *  is the page's own words for its code instead. */
export function problemText(problem) {
  if (problem.code === "offline") return t("connection.lost");  // not the browser's English
  const body = problem.body || {};
  let detail = body.detail || problem.message;
  if (inEnglish(detail)) {
    const own = `problem.code.${problem.code}`;
    detail = WORDS.ja[own] ? t(own) : t("problem.other");
  }
  // (a Japanese detail names its rule itself)
  const named = body.rule && !String(detail).includes(body.rule);
  return named ? `${detail} (${t("problem.rule", { rule: body.rule })})` : detail;
}

/** A schema check's message (jsonschema's English: "'vp_tokens' is a required property")
 *  in the page's language. */
export function checkText(message) {
  if (!inEnglish(message)) return message;
  for (const [pattern, sentence] of CHECKS) {
    const found = pattern.exec(message);
    if (!found) continue;
    const part = (i) => {
      const word = (found[i] || "").replace(/^'(.*)'$/, "$1");
      return TYPES[word] || FIELDS.ja[word] || word;  // a field's name, a type, or the value
    };
    return sentence.replace(/\{(\d)\}/g, (_, i) => part(Number(i)));
  }
  return t("problem.code.bad_request");
}

/** A schema's description (an option's or a field's help) in the page's language. */
export function describeText(text) {
  return inEnglish(text) ? DESCRIPTIONS[text] || text : text;
}
