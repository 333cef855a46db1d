"""Vectron's bot hooks (see ``referee.bots``): worlds dealt from the cards a seat cannot see.

A seat sees its own hand, every column, the map and the held chips, and only
the sizes of the other hands and of the deck (V-7.2). A world deals the cards
it cannot see — the options' action cards less its hand and the columns — at
random into the other hands, each at its size, and the rest into the deck; a
digital world gets a fresh generator (the deck's draws, the layout).
"""

from collections import Counter

from referee.bots import blank_world, deal, fresh_generator

from .board import STARS
from .scoring import settlement_points

PLAYOUT_DEPTH = 40
EVAL_SCALE = 2.0
#: the share of the next settlement (V-6.2) that the gauges as they stand are worth
PENDING_SETTLEMENT = 0.6
#: a held star chip's stars, worth a little: they raise the gauge at the next gate (V-5.2)
HELD_STAR = 0.1


def unseen_cards(view: dict, seat: int) -> list[str]:
    """The cards in the deck and in the other hands, as ``seat`` can count them."""
    left = Counter(view["options"]["action_cards"])
    left.subtract(view["hands"][seat - 1])
    for column in view["columns"]:
        left.subtract(column)
    if min(left.values(), default=0) < 0:
        raise ValueError("more cards in sight than the game has")
    return sorted(left.elements())


def sample_world(view: dict, seat: int, rnd) -> dict:
    state = blank_world(view)
    hands, pool = deal(unseen_cards(view, seat), {
        other: hand["count"] for other, hand in enumerate(view["hands"], 1) if other != seat},
        rnd)
    for other, hand in hands.items():
        state["hands"][other - 1] = sorted(hand)
    if len(pool) != view["deck"]["count"]:
        raise ValueError("the hands and the deck do not hold the unseen cards")
    state["deck"] = sorted(pool)
    state["rng"] = fresh_generator(view, rnd)
    return state


def evaluate(state: dict, seat: int) -> float:
    """The seat's score, part of what the gauges would settle now, and its held stars,
    against the best other seat."""
    worth = list(state["scores"])
    if state["to_move"] and state["grid"] is not None:
        pending = settlement_points(state["gauges"])
        for index, held in enumerate(state["held"]):
            worth[index] += PENDING_SETTLEMENT * pending[index] + HELD_STAR * STARS[held]
    mine = worth.pop(seat - 1)
    return mine - max(worth)
