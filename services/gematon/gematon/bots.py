"""Gematon's bot hooks (see ``referee.bots``): worlds dealt from the chips a seat cannot see.

A seat sees its own hand, every stack, altar and pentacle, and only the sizes
of the other hands and of the bag (GM-6.2). A world deals the chips it cannot
see — the 9 of each value (GM-1.2) less every visible one — at random into the
other hands, each at its size, and the rest into the bag; a digital world gets
a fresh generator (the bag's draws, the setup's deals).
"""

from referee.bots import blank_world, deal, fresh_generator

from .board import CHIPS_PER_VALUE, VALUES

#: playouts run to the game's end: a game is 7 rounds of a few moves each (GM-5.1)
PLAYOUT_DEPTH = 200
EVAL_SCALE = 6.0


def unseen_chips(view: dict, seat: int) -> list[int]:
    """The chips in the bag and in the other hands, as ``seat`` can count them."""
    left = dict.fromkeys(VALUES, CHIPS_PER_VALUE)
    seen = [chip for chips in view["altars"].values() for chip in chips]
    for number, mine in enumerate(view["seats"], 1):
        seen += mine["stack"] + [c for c in mine["pentacle"] if c is not None]
        if number == seat:
            seen += mine["hand"]
    for chip in seen:
        left[chip] -= 1
    if min(left.values()) < 0:
        raise ValueError("more chips in sight than the game has")
    return [value for value, count in left.items() for _ in range(count)]


def sample_world(view: dict, seat: int, rnd) -> dict:
    state = blank_world(view)
    hands, pool = deal(unseen_chips(view, seat), {
        other: mine["hand"]["count"] for other, mine in enumerate(view["seats"], 1)
        if other != seat}, rnd)
    for other, hand in hands.items():
        state["seats"][other - 1]["hand"] = sorted(hand)
    if len(pool) != view["bag"]["count"]:
        raise ValueError("the hands and the bag do not hold the unseen chips")
    state["bag"] = {str(v): pool.count(v) for v in VALUES}
    state["rng"] = fresh_generator(view, rnd)
    return state
