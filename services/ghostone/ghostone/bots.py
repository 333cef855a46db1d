"""Ghostone's bot hooks (see ``referee.bots``): nothing is hidden but the generator.

A world is the view itself with a fresh generator for the ghost's die (G-6.2);
a tabletop view has none, and the bot draws the die itself.
"""

from referee.bots import open_world

from .scoring import score

#: a strong bot's playout: about two rounds of moves, then the evaluation
PLAYOUT_DEPTH = 12
EVAL_SCALE = 4.0
#: what a rock under a standing piece is worth: points once the piece escapes (G-5.2)
ROCK_UNDER_PIECE = 0.5


def sample_world(view: dict, seat: int, rnd) -> dict:
    return open_world(view, rnd)


def evaluate(state: dict, seat: int) -> float:
    """The seat's points plus what its pieces stand on, against the best other seat."""
    worth = [line["total"] for line in score(state)]
    if state["to_move"]:
        for index, plates in enumerate(state["pieces"]):
            worth[index] += ROCK_UNDER_PIECE * sum(state["rocks"][p] for p in plates)
    mine = worth.pop(seat - 1)
    return mine - max(worth)


def playout_move(state: dict, seat: int, moves: list, rnd) -> dict:
    """Playouts escape like a careful player (G-5): mostly the richest escape on
    offer, else any move."""
    rocks = state["rocks"]
    escapes = [m for m in moves if m["type"] == "move" and rocks[m["to"]] == 0]
    if escapes and rnd.random() < 0.8:
        return max(escapes, key=lambda m: rocks[m["from"]])
    return rnd.choice(moves)
