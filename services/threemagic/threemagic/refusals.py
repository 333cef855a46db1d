"""Why a move is illegal: the rule it breaks and a sentence (``_why_illegal``).

Values the caller wrote are quoted as JSON (``"R9"``, ``null``), never as Python."""

from referee.engine import CHANCE, canonical, repr_json

from .calls import ANSWERS
from .cards import (
    COPIES, MAX_CALLS, chi_spell, is_canonical_discard, is_card, is_tenpai, pon_spell,
)
from .rules import pending_chance
from .table import after, seat_call_cost, unseen
from .wire import MOVES

#: the moves a seat makes (the others are chance's)
SEAT_MOVES = ("tsumo", "discard", *ANSWERS)
PENDING = {"deal": "the card dealt to seat {to}", "draw": "the card seat {to} draws",
           "indicator": "a catalyst indicator turned up"}


def why_illegal(state, move):
    kind, seat = move.get("type"), move.get("seat")
    if seat == CHANCE:
        return _why_chance(state, move)
    if kind == "answer":
        return "T-5.1", ("an answer is sealed only in the log: a seat answers a call window "
                         "with ron, pon, chi or pass")
    if not isinstance(kind, str) or kind not in SEAT_MOVES:
        return "T-4", (f"unknown move type {repr_json(kind)}: a seat plays tsumo, discard, "
                       "ron, pon, chi or pass")
    fields = _fields(move)
    if fields:
        return "T-4", fields
    phase = state["phase"]
    if phase == "turn":
        return _why_turn(state, move, seat)
    if phase == "calls":
        return _why_call(state, move, seat)
    hand = state["hands"][seat - 1]
    if kind == "discard" and move.get("riichi") is True:
        return "T-5.5", "a seat that called has lost the right to riichi"
    return "T-5.6", (f"after a call the caller discards one hand card: insert null, remove "
                     f"0…{len(hand) - 1}, riichi false")


def _fields(move) -> str | None:
    """A field the move's type does not have, or one it lacks, in words."""
    schema = MOVES[move["type"]]
    extra = sorted(set(move) - set(schema["properties"]))
    missing = [f for f in schema["required"] if f not in move]
    if extra:
        return f"a {move['type']} has no field {_listed(extra)}"
    if missing:
        return f"a {move['type']} names its {_listed(missing)}"
    return None


def _why_chance(state, move):
    card, expected = move.get("card"), pending_chance(state)
    if not is_card(card):
        return "T-1.2", (f"{repr_json(card)} is no card: R, B or G, a number 0–4, then * if "
                         "starred (R3*, B0)")
    if any(canonical(move.get(k)) != canonical(v) for k, v in expected.items()):
        pending = PENDING[expected["type"]].format(**expected)
        fields = ", ".join(f"{k} {repr_json(v)}" for k, v in expected.items() if k != "seat")
        return "T-10.1", f"the pending chance event is {pending} ({fields}, and its card)"
    extra = sorted(set(move) - set(expected) - {"card"})
    if extra:
        return "T-10.1", f"a {expected['type']} has no field {_listed(extra)}"
    if unseen(state)[card] > 0:  # not reached: every unseen card is a listed outcome
        return "T-10.1", f"{card} cannot come now"
    copies = "its only copy is" if COPIES[card] == 1 else f"all {COPIES[card]} copies are"
    return "T-10.1", f"no copy of {card} can still be unseen: {copies} in sight"


def _listed(words) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _why_turn(state, move, seat):
    kind, hand, drawn = move["type"], state["hands"][seat - 1], state["drawn"]
    if kind != "tsumo" and kind != "discard":
        return "T-5.1", "ron, pon, chi and pass answer another seat's discard; now tsumo or discard"
    insert = move.get("insert")
    if kind == "tsumo":
        return "T-4.2", (f"{drawn} inserted at {repr_json(insert)} does not complete the hand "
                         "(T-2.2)")
    remove, riichi = move.get("remove"), move.get("riichi")
    positions = range(len(hand) + 1)
    if type(insert) is not int or insert not in positions or type(
            remove) is not int or remove not in positions:
        return "T-4.3", f"insert and remove are positions 0…{len(hand)} of the hand with {drawn}"
    if type(riichi) is not bool:
        return "T-4.4", "riichi must be true or false"
    if not is_canonical_discard(insert, remove):
        return "T-4.3", _canonical_spelling(insert, remove)
    if state["riichi"][seat - 1]:
        return "T-6.3", ("a riichi hand is locked: tsumo, or drop the drawn card "
                         "(insert 0, remove 0)")
    if riichi:
        full = hand[:insert] + [drawn] + hand[insert:]
        if state["called"][seat - 1]:
            return "T-5.5", "a seat that called has lost the right to riichi"
        if state["od"][seat - 1] < 10 or state["draw_pile"] == 0 or state["unused"] == 0:
            return "T-6.1", "riichi needs 10 od, a draw pile and a face-down unused card"
        if not is_tenpai(full[:remove] + full[remove + 1:]):
            return "T-6.1", "riichi needs the 8 cards kept to be one card short of complete"
    return "T-4.3", "not a legal insert-and-discard"


def _canonical_spelling(insert: int, remove: int) -> str:
    """Why an equivalent spelling of a discard is refused, and the listed one (T-4.3)."""
    if insert == remove:
        return ("dropping the drawn card is one move, listed once as insert 0, remove 0 "
                f"(not insert {insert}, remove {remove})")
    return (f"the drawn card taking the place of card {insert} is one move, listed once as "
            f"insert {remove}, remove {insert} (not insert {insert}, remove {remove})")


def _why_call(state, move, seat):
    kind = move["type"]
    if kind in ("tsumo", "discard"):
        return "T-5.1", "a call window is open: ron, pon, chi or pass"
    card, hand = state["window"]["card"], state["hands"][seat - 1]
    if kind == "ron":
        return "T-5.1", (f"{card} inserted at {repr_json(move.get('insert'))} does not complete "
                         "the hand")
    if state["riichi"][seat - 1]:
        return "T-6.3", "a riichi hand may not call"
    if len(state["called"][seat - 1]) >= MAX_CALLS:
        return "T-5.4", "at most 2 calls per seat per match"
    if state["draw_pile"] == 0:
        return "T-5.7", "no pon or chi on the discard made with the draw pile empty"
    if state["od"][seat - 1] < seat_call_cost(state, seat, card):
        return "T-5.4", f"this call costs {seat_call_cost(state, seat, card)} od"
    if kind == "chi" and seat != after(state["turn"]):
        return "T-5.1", "chi only on the discard of the left player"
    cards = move.get("cards")
    if not (isinstance(cards, list) and len(cards) == 2 and all(
            type(c) is int and 0 <= c < len(hand) for c in cards) and cards[0] < cards[1]):
        return "T-5.1", f"cards must be two positions of the hand (0…{len(hand) - 1})"
    make = pon_spell if kind == "pon" else chi_spell
    if make(hand[cards[0]], hand[cards[1]], card) is None:
        return "T-5.3", f"{hand[cards[0]]}, {hand[cards[1]]} and {card} make no {kind} spell"
    return "T-5.1", "not a legal call"


#: each rule id of RULES.md in Japanese (the words of text.py: マナ, 手札, 霊脈, 誓約, 触媒表示,
#: オド, 管理者): what a refusal's Japanese detail says of the rule it breaks
RULES_JA = {
    "T-1": "コンポーネント",
    "T-2": "呪文",
    "T-3": "試合",
    "T-5": "鳴きとロン",
    "T-6": "誓約（リーチ）",
    "T-7": "上がりと得点（魔力測定）",
    "T-8": "試合の終わり",
    "T-9": "ゲームの終わり",
    "T-10": "偶然と非公開の情報",
    "T-1.1": "ちょうど3人で、それぞれ属性（火・水・木）を1つ持つ",
    "T-1.2": "マナカード60枚：属性ごとに0が4枚、1〜4が4枚ずつ（うち3枚は星付き）",
    "T-1.3": "各席は270オドで始まる",
    "T-1.4": "火は水に、水は木に、木は火に弱い",
    "T-2.1": "呪文：1つの属性の3枚で、13の型のどれかになるもの",
    "T-2.2": "上がりの手札：決まった並びのまま呪文に分かれ、鳴いた呪文と合わせて3つになる",
    "T-3.1": "試合を続けて行い、最初の管理者は火の席",
    "T-3.2": "手番は管理者から1→2→3。左の人がすぐ前に打つ",
    "T-3.3": "準備：各8枚を配った順に、不使用札と1枚目の触媒表示、山札",
    "T-4": "手番",
    "T-4.1": "手番は1枚引くことから始まる",
    "T-4.2": "引いたマナをどこかに差して上がれるならツモできる（しなくてもよい）",
    "T-4.3": "そうでなければ引いたマナを差し、1枚捨てる",
    "T-4.4": "捨てるときに誓約（リーチ）を宣言できる",
    "T-4.5": "捨てた後に鳴きの機会があり、鳴きがなければ次の席の番",
    "T-5.1": "鳴きの機会：ロン、ポン、チー（次の席だけ）、またはパス",
    "T-5.2": "ロン＞ポン＞チー。ロンが2人なら捨てた人の次の席が優先",
    "T-5.3": "鳴いた呪文は手札の並びのまま、捨て札をその位置に入れて晒す",
    "T-5.4": "鳴きの支払いは10/30、2回目から30/90。払えない席は鳴けず、鳴きは2回まで",
    "T-5.5": "鳴いた人はその試合の誓約と霊脈を失う",
    "T-5.6": "鳴いた人が1枚捨て、その次の席から続ける",
    "T-5.7": "山札が空になって捨てた札にはポンもチーもできない",
    "T-5.8": "誓約の捨て札を鳴いても、賭けたオドは場に残る",
    "T-6.1": "誓約の条件：鳴いていない、テンパイ、10オド、山札があり、伏せた不使用札がある",
    "T-6.2": "誓約は10オドを賭け、新しい触媒表示をめくる",
    "T-6.3": "誓約後の手札は固定：ツモするか、引いた札を捨てる。ロンはできるが鳴けない",
    "T-7.1": "ロンは捨てた人が払い、ツモは他の2人が半分ずつ（5単位で切り上げ）払う",
    "T-7.2": "魔力の計算：属性、数字、星、そして触媒",
    "T-7.3": "0点の上がりは何も払わない（特殊流局）",
    "T-7.4": "場は誓約した勝者へ、霊脈は鳴いていない勝者へ、残りは霊脈へ",
    "T-8.1": "山札切れの流局：場は霊脈へ。テンパイの管理者は続投し10を加える",
    "T-8.2": "支払いのある上がりの後、管理者が続投するのは自分が上がったときだけ",
    "T-8.3": "特殊流局：支払いなし、場は霊脈へ、管理者は続投し10を加える",
    "T-9.1": "管理者が最初の管理者に戻るか、誰かが0未満になるとゲーム終了",
    "T-9.2": "オドが最も多い人が勝ち。同点は分け合う",
    "T-10.1": "偶然：配る・引く・めくるカードそれぞれ。ありえないカードは拒否する",
    "T-10.2": "各席に見えるのは自分の手札と表向きのものすべて、残りは枚数だけ",
}
