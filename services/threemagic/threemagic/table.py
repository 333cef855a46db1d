"""The table around the cards: seats and turn order, the od stakes and the
options' bounds, and where the 60 cards are — in sight, or unseen (the draw
pile, the face-down unused cards, the undealt cards).

No deck order is stored: every card not in sight is equally likely to come
next, so each chance event draws among the unseen copies (referee decision 3).
"""

from .cards import COPIES, DECK_SIZE, HAND_SIZE, LETTER, MAX_CALLS, call_cost, counts

SEATS = (1, 2, 3)
RIICHI_STAKE = 10  # T-6.2
MANAGER_STAKE = 10  # T-8.1, T-8.3
#: the largest od an option may set (starting od, each scoring table's entry)
MAX_OD = 100_000
#: the unused pile's size: one card for the 1st indicator at least, and a draw pile
UNUSED_CARDS = (1, 30)
#: how many times the manager role may return to the first manager before the end
ROTATIONS = (1, 20)
#: the bounds a seat's od is checked against (payments may take it below 0, T-9.1)
OD_RANGE = (-10 * MAX_OD, 10 * MAX_OD)
#: the most indicators a match turns: the 1st and one per riichi, one riichi a seat (T-6.2)
MOST_INDICATORS = 1 + len(SEATS)
#: the most a seat puts on the field in a match: its riichi stake, or its calls (T-5.4, T-6.1)
MOST_STAKES = max(RIICHI_STAKE, sum(call_cost(k, False) for k in range(MAX_CALLS)))
MOST_FIELD = len(SEATS) * MOST_STAKES
#: the pool holds od the seats started with, and a last manager's stake that busts it (T-9.1)
MOST_POOL = len(SEATS) * MAX_OD + MANAGER_STAKE
#: the most cards a seat can have discarded in a match: the 36 not dealt, less the 1st indicator
MOST_DISCARDS = DECK_SIZE - 3 * HAND_SIZE - 1


def after(seat: int) -> int:
    """The next seat in turn order (T-3.2)."""
    return seat % 3 + 1


def answer_order(discarder: int) -> list[int]:
    """The other seats in turn order after the discarder (T-5.2)."""
    return [after(discarder), after(after(discarder))]


def seat_attribute(state, seat: int) -> str:
    return state["options"]["attributes"][seat - 1]


def first_manager(state) -> int:
    """T-3.1: the fire seat manages the first match."""
    return state["options"]["attributes"].index("fire") + 1


def seat_call_cost(state, seat: int, card: str) -> int:
    """T-5.4: what ``seat`` pays to call ``card`` now."""
    own = card[0] == LETTER[seat_attribute(state, seat)]
    return call_cost(len(state["called"][seat - 1]), own)


def seen_cards(state) -> list[str]:
    """Every card somebody sees: hands, discards, called spells, indicators, the drawn card."""
    cards = [c for hand in state["hands"] for c in hand]
    cards += [c for pile in state["discards"] for c in pile]
    cards += [c for spells in state["called"] for spell in spells for c in spell]
    cards += state["indicators"]
    if state["drawn"] is not None:
        cards.append(state["drawn"])
    return cards


def unseen(state) -> dict[str, int]:
    """Copies of each card kind nobody can see (draw pile, unused pile, undealt)."""
    seen = counts(seen_cards(state))
    return {card: n - seen.get(card, 0) for card, n in COPIES.items()}


def deal_recipient(state) -> int:
    """T-3.3 (referee decision 2): one card at a time, round from the manager."""
    dealt = sum(map(len, state["hands"]))
    return (state["manager"] - 1 + dealt) % 3 + 1


def dealt_to(state, seat: int, dealt: int) -> int:
    """How many of the first ``dealt`` cards of the deal went to ``seat``."""
    offset = (seat - state["manager"]) % 3
    return max(0, (dealt - offset + 2) // 3)


def full_draw_pile(options) -> int:
    return DECK_SIZE - 3 * HAND_SIZE - options["unused_cards"]
