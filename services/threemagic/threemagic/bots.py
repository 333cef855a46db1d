"""Three Magic's bot hooks (see ``referee.bots``): worlds dealt from the cards a seat
cannot see, and the other seats' sealed answers guessed from the hands dealt.

A seat sees its own hand, every discard, called spell and indicator, and only
the sizes of the other hands; another seat's drawn card and its answer in a
call window are hidden (T-10.2). No deck order exists (table.py): a world
deals the unseen copies at random into the other hands (each at its size, in
a random order) and the drawn card, the rest staying unseen; a digital world
gets a fresh generator for the draws. A sealed answer is guessed as a careful
player would give it with the hand the world dealt: ron when the hand wins,
else pass or one of its calls, evenly (T-5.1).
"""

from referee.bots import blank_world, deal, fresh_generator

from .calls import call_options
from .cards import COPIES, counts

#: a match is a few dozen moves; the od lead is judged after about one go round the table
PLAYOUT_DEPTH = 30
EVAL_SCALE = 60.0
HIDDEN = "hidden"


def unseen_cards(view: dict, seat: int) -> list[str]:
    """Every copy ``seat`` cannot see: other hands, a hidden drawn card, the piles."""
    seen = list(view["hands"][seat - 1])
    seen += [c for pile in view["discards"] for c in pile] + list(view["indicators"])
    seen += [c for spells in view["called"] for spell in spells for c in spell]
    if view["drawn"] not in (None, HIDDEN):
        seen.append(view["drawn"])
    shown = counts(seen)
    left = {card: n - shown.get(card, 0) for card, n in COPIES.items()}
    if min(left.values()) < 0:
        raise ValueError("more copies in sight than the deck holds")
    return [card for card, n in left.items() for _ in range(n)]


def sample_world(view: dict, seat: int, rnd) -> dict:
    state = blank_world(view)
    hands, pool = deal(unseen_cards(view, seat), {
        other: hand["count"] for other, hand in enumerate(view["hands"], 1) if other != seat},
        rnd)
    for other, hand in hands.items():
        state["hands"][other - 1] = hand  # a hand keeps its owner's order: any order will do
    if view["drawn"] == HIDDEN:
        state["drawn"] = pool.pop()
    if state["window"]:
        state["window"]["answers"] = [
            answer if answer["seat"] == seat else guess_answer(state, answer["seat"], rnd)
            for answer in view["window"]["answers"]]
    state["rng"] = fresh_generator(view, rnd)
    return state


def guess_answer(state: dict, seat: int, rnd) -> dict:
    options = call_options(state, seat, state["window"]["card"])
    wins = [move for move in options if move["type"] == "ron"]
    if wins:
        return wins[0]
    return rnd.choice([{"type": "pass", "seat": seat}, *options])
