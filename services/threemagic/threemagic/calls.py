"""The call window (T-5.1): who is asked about a discard, and what each asked
seat may answer (ron, pon, chi or pass)."""

from itertools import combinations

from .cards import (
    FACE_COPIES, MAX_CALLS, chi_spell, could_chi, could_pon, could_ron, face, pon_spell,
    winning_insertions,
)
from .table import after, answer_order, seat_call_cost

ANSWERS = ("ron", "pon", "chi", "pass")


def asked_seats(state) -> list[int]:
    """Who is asked about the discard of ``turn`` (T-5.1, referee decision 6).

    Only what the whole table sees decides it — the discard, the cards face up,
    hand sizes, riichi, calls, od and the draw pile — never a hand: a seat is
    asked when *some* hand it could hold, as far as the table can tell, lets
    it ron, pon or chi this card. Whatever its real hand, being asked tells
    nothing; a seat that cannot call answers pass.
    """
    card = state["discards"][state["turn"] - 1][-1]
    hidden = public_unseen_faces(state)
    return [seat for seat in answer_order(state["turn"])
            if _may_call(state, seat, card, hidden)]


def public_unseen_faces(state) -> dict[str, int]:
    """Copies of each face (``R3``) nobody sees face up: what the hidden hands,
    the drawn card and the piles hold between them, as the table knows it."""
    hidden = dict(FACE_COPIES)
    shown = [c for pile in state["discards"] for c in pile] + state["indicators"]
    shown += [c for spells in state["called"] for spell in spells for c in spell]
    for card in shown:
        hidden[face(card)] -= 1
    return hidden


def _may_call(state, seat, card, hidden) -> bool:
    wanted = face(card)
    if could_ron(hidden, len(state["hands"][seat - 1]), wanted):
        return True
    if not _may_lay(state, seat, card):
        return False  # ron was the only call left
    return could_pon(hidden, wanted) or (
        seat == after(state["turn"]) and could_chi(hidden, wanted))


def _may_lay(state, seat, card) -> bool:
    """Whether ``seat`` may pon or chi at all now (T-6.3, T-5.4, T-5.7)."""
    return not (state["riichi"][seat - 1] or len(state["called"][seat - 1]) >= MAX_CALLS
                or state["draw_pile"] == 0
                or state["od"][seat - 1] < seat_call_cost(state, seat, card))


def call_options(state, seat, card) -> list[dict]:
    """T-5.1: ron, pon and chi of ``seat`` on ``card`` (pass aside)."""
    hand = state["hands"][seat - 1]
    moves = [{"type": "ron", "seat": seat, "insert": p}
             for p in winning_insertions(hand, card)]
    if not _may_lay(state, seat, card):
        return moves
    same_attribute = [i for i, c in enumerate(hand) if c[0] == card[0]]
    pairs = list(combinations(same_attribute, 2))
    moves += [{"type": "pon", "seat": seat, "cards": [i, j]} for i, j in pairs
              if pon_spell(hand[i], hand[j], card)]
    if seat == after(state["turn"]):
        moves += [{"type": "chi", "seat": seat, "cards": [i, j]} for i, j in pairs
                  if chi_spell(hand[i], hand[j], card)]
    return moves
