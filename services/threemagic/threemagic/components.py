"""Three Magic's component catalog: what a client needs to draw and explain the game
without the source — the three attributes, the 27 kinds of mana card (60 cards),
the 13 spell patterns, the call costs and stakes, and the table's words, named and
explained in English and Japanese (the designers' words).

Pure data, built from the game's own constants, never a second copy.
"""

from .cards import (
    ASCENDING, ATTRIBUTE_NAMES, ATTRIBUTES, COPIES, DECK_SIZE, DESCENDING, HAND_SIZE, LETTER,
    MAX_CALLS, SAME_NUMBERS, WEAK_TO, call_cost, card_name, number, starred,
)
from .scoring import CATALYST_POINTS, THRESHOLD, catalyst_of
from .table import MANAGER_STAKE, MOST_INDICATORS, RIICHI_STAKE

PATTERN_KINDS = (("same", SAME_NUMBERS, {"en": "same numbers", "ja": "同数"}),
                 ("ascending", ASCENDING, {"en": "ascending", "ja": "昇り順"}),
                 ("descending", DESCENDING, {"en": "descending", "ja": "降り順"}))


def catalog() -> dict:
    return {
        "game": "threemagic",
        "attributes": [_attribute(a) for a in ATTRIBUTES],
        "deck": {
            "name": {"en": "mana cards", "ja": "魔力（マナ）"},
            "size": DECK_SIZE, "hand_size": HAND_SIZE,
            "text": {
                "en": f"{DECK_SIZE} cards: per attribute, four 0s (never starred) and four of "
                      "each number 1–4, three of them starred. Written as the attribute's "
                      "letter (R fire, B water, G wood), the number and * when starred: R3*. "
                      f"Each seat holds {HAND_SIZE} in the order dealt, never rearranged.",
                "ja": f"全{DECK_SIZE}枚。属性ごとに0が4枚（星なし）、1〜4が各4枚（うち3枚に星）。"
                      "表記は属性の文字（R火・B水・G木）、数字、星ありは*：R3*。"
                      f"手札は{HAND_SIZE}枚、配られた並び順を試合終了まで変えない。"},
        },
        "cards": [_card(card) for card in COPIES],
        "spell": {
            "name": {"en": "spell", "ja": "呪文"},
            "text": {
                "en": "Three adjacent cards of one attribute whose numbers read one of the "
                      "13 patterns; stars do not matter. A winning hand is 3 spells: its "
                      "fixed order splits into spells, with the called ones.",
                "ja": "隣接する3枚1組の同じ属性の魔力（マナ）で、数字が13通りの並びの"
                      "どれかになっているもの。星は関係ない。上がりは3呪文（誓約した呪文を"
                      "含む）。"},
            "patterns": [
                {"numbers": list(pattern), "kind": kind,
                 "name": {lang: f"{words[lang]} {''.join(map(str, pattern))}"
                          for lang in ("en", "ja")}}
                for kind, patterns, words in PATTERN_KINDS for pattern in patterns],
        },
        "calls": {
            "name": {"en": "calls (pon, chi)", "ja": "誓約（ポン・チー）"},
            "most_per_match": MAX_CALLS,
            "costs": [{"call": k + 1, "own_attribute": call_cost(k, True),
                       "other_attribute": call_cost(k, False)} for k in range(MAX_CALLS)],
            "text": {
                "en": "Making a spell with another seat's discard: pon (same numbers, from "
                      "either seat) or chi (a sequence, from the seat before only). It costs "
                      "od put on the field and loses riichi and the pool for the match.",
                "ja": "他のプレイヤーの捨てた魔力（マナ）で呪文を作ること。ポン（同数、"
                      "どちらのプレイヤーからも）とチー（順番、左側のプレイヤーからのみ）。"
                      "魔力（オド）を場に出し、その試合のリーチと霊脈を回収する権利を失う。"},
        },
        "catalyst": {
            "name": {"en": "catalyst indicator", "ja": "触媒表示"},
            "points_per_card": CATALYST_POINTS, "threshold": THRESHOLD,
            "most_indicators": MOST_INDICATORS,
            "text": {
                "en": "A card turned up from the unused pile points at its catalyst: the same "
                      f"attribute, the next number (4 → 0). A winning hand scores "
                      f"{CATALYST_POINTS} per catalyst card per indicator once the base "
                      f"reaches {THRESHOLD}; the 1st indicator counts for everyone, the "
                      "others (one per riichi) for a riichi winner only.",
                "ja": "不使用札からめくった魔力（マナ）で、触媒（同じ属性の次の数字、4の次は"
                      f"0）を指し示す。属性・数字・星の合計が{THRESHOLD}点以上の上がりで、"
                      f"触媒1枚につき触媒表示1枚ごとに{CATALYST_POINTS}点。1枚目は全員、"
                      "2枚目以降（リーチごとに1枚）はリーチした上がりのみ。"},
        },
        "stakes": {"riichi": RIICHI_STAKE, "manager": MANAGER_STAKE},
        "terms": [dict(id=term, name=name, text=text) for term, name, text in TERMS],
    }


def _attribute(attribute: str) -> dict:
    weak = WEAK_TO[attribute]
    names = ATTRIBUTE_NAMES
    return {"id": attribute, "letter": LETTER[attribute], "weak_to": weak,
            "name": dict(names[attribute]),
            "text": {"en": f"{names[attribute]['en'].capitalize()} is weak to "
                           f"{names[weak]['en']}.",
                     "ja": f"{names[attribute]['ja']}は{names[weak]['ja']}に弱い。"}}


def _card(card: str) -> dict:
    attribute = next(a for a in ATTRIBUTES if LETTER[a] == card[0])
    return {"id": card, "attribute": attribute, "number": number(card),
            "starred": starred(card), "copies": COPIES[card], "catalyst": catalyst_of(card),
            "name": {lang: card_name(card, lang) for lang in ("en", "ja")}}


TERMS = (
    ("od", {"en": "od", "ja": "魔力（オド）"},
     {"en": "Each seat's score: what wins pay and stakes cost. Highest od at the end wins.",
      "ja": "各プレイヤーの持ち点。上がりで受け払いし、リーチや誓約で場に出す。"
            "ゲーム終了時に最も多い人の勝ち。"}),
    ("manager", {"en": "manager", "ja": "管理者"},
     {"en": "The seat that plays first in a match; the fire seat manages the first. It stays "
            "when it wins, at a special draw, or when tenpai at an exhaustive draw.",
      "ja": "各試合のスタートプレイヤー。最初の試合は火の属性の人。上がったとき、特殊な"
            "流局のとき、流局時にテンパイのときは継続する。"}),
    ("field", {"en": "field", "ja": "場"},
     {"en": "The od staked this match: riichi stakes and call costs. A riichi winner takes it; "
            "otherwise it goes to the pool.",
      "ja": "その試合でリーチや誓約のために出した魔力（オド）。リーチで上がった人が回収し、"
            "それ以外は霊脈に移る。"}),
    ("pool", {"en": "pool", "ja": "霊脈"},
     {"en": "Od left over from earlier matches; a winner who made no call takes it.",
      "ja": "以前の試合から溜まった魔力（オド）。誓約せずに上がった人が回収する。"}),
    ("unused_pile", {"en": "unused pile", "ja": "不使用札"},
     {"en": "Cards set aside face down at setup; its top card is the 1st catalyst indicator "
            "and each riichi turns another.",
      "ja": "準備時に裏向きで除けておく札。一番上が1枚目の触媒表示になり、リーチごとに"
            "1枚めくる。"}),
    ("draw_pile", {"en": "draw pile", "ja": "山札"},
     {"en": "The cards left to draw; when it runs out without a win, the match is an "
            "exhaustive draw.",
      "ja": "引く魔力（マナ）の山。誰も上がらずに尽きると流局。"}),
    ("riichi", {"en": "riichi", "ja": "リーチ"},
     {"en": "Declared with a discard by a seat without calls that is one card short of "
            "winning: stakes 10 od, turns a new indicator, and locks the hand.",
      "ja": "誓約をしておらず、9枚中8枚まで揃っているときに捨てる魔力（マナ）とともに宣言。"
            "10点を出し、触媒表示を1枚めくり、以後手札を交換できない。"}),
    ("tsumo", {"en": "tsumo", "ja": "ツモ"},
     {"en": "Winning with the card drawn: the other two seats pay half each.",
      "ja": "自分が引いた魔力（マナ）で上がること。他の2人が半分ずつ支払う。"}),
    ("ron", {"en": "ron", "ja": "ロン"},
     {"en": "Winning with another seat's discard: the discarder pays it all.",
      "ja": "相手が捨てた魔力（マナ）で上がること。捨てた人がすべて支払う。"}),
    ("tenpai", {"en": "tenpai", "ja": "テンパイ"},
     {"en": "One card short of a winning hand.", "ja": "9枚中8枚まで揃っている状態。"}),
    ("exhaustive_draw", {"en": "exhaustive draw", "ja": "流局"},
     {"en": "The draw pile ran out without a win: the field goes to the pool; a tenpai "
            "manager stays and adds 10 to the pool.",
      "ja": "山札が尽きて誰も上がらなかった場合。場の魔力（オド）は霊脈へ。管理者が"
            "テンパイなら継続し、霊脈に10点を加える。"}),
    ("special_draw", {"en": "special draw", "ja": "特殊な流局"},
     {"en": "A win whose attribute, numbers and stars make 0: nothing is paid, the field "
            "goes to the pool and the manager stays, adding 10 to the pool.",
      "ja": "上がりの属性＋数字＋星が0点のとき。支払いはなく、場の魔力（オド）は霊脈へ、"
            "管理者は継続して霊脈に10点を加える。"}),
)
