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
