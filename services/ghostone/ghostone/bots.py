"""Ghostone's bot hooks (see ``referee.bots``): nothing is hidden but the generator.

A world is the view itself with a fresh generator for the ghost's die (G-6.2);
a tabletop view has none, and the bot draws the die itself.
"""

from referee.bots import open_world

from .board import escape_bonus, step

#: a strong bot's playout: about two rounds of moves, then the evaluation
PLAYOUT_DEPTH = 12
#: a cut-off playout's lead of this many points is worth ~73 % (logistic); 2.0 was tried:
#: against greedy at 500 iterations a move, seeds 31-70, it won 28.3 of 40 where 4.0 won 30.5
EVAL_SCALE = 4.0
#: what a rock under a standing piece is worth: points once the piece escapes (G-5.2)
ROCK_UNDER_PIECE = 0.5
#: what the search's cut-off judgement (:func:`cutoff_evaluate`) adds for a piece still
#: standing: the points it may yet gather and cash. Against greedy (seats rotated) 3.0 won
#: 33 of 40 games at 500 iterations a move (seeds 31-70) where 0 won 30.5, and 80.5 of 100
#: at 1 s CPU a move (seeds 1-100) where 0 won 71.5 (README's Bots section)
STANDING_PIECE = 3.0
#: the share of a playout's piece moves drawn uniformly rather than by their gain
PLAYOUT_EXPLORATION = 0.2
#: the search's UCB1 constant (the platform's is 0.7): on the same 30 seeded games against
#: greedy at 370 iterations a move, 0.35 won 21 where 0.7 won 19 (0.2: 17.5 of the first 25
#: where 0.7 won 16) — within the noise of 30 games, measured in README's Bots section
EXPLORATION = 0.35
#: whether the search groups piece moves by piece and step too (placements always, see
#: :func:`move_group`): grouped so, on seeds 1-30 against greedy at 1,000 iterations a
#: move the strong bot won 25 games where the flat search won 17 (README's Bots section)
GROUP_PIECE_MOVES = True


def move_group(move: dict):
    """A move's group in the search (``referee.ismcts``): a placement's plate (G-2.3: up to
    56 rock choices each, ~900 placements in all), a piece move's piece and step (G-4.1;
    its rock's direction, G-4.2, is chosen within); a pass is its own."""
    if move["type"] == "place":
        return move["plate"]
    if move["type"] == "move" and GROUP_PIECE_MOVES:
        return move["from"], move["to"]
    return None


def sample_world(view: dict, seat: int, rnd) -> dict:
    return open_world(view, rnd)


def evaluate(state: dict, seat: int) -> float:
    """The seat's points plus what its pieces stand on, against the best other seat.
    (The totals of :func:`scoring.score`, summed here without its breakdown: a search
    asks this of every seat at every playout's end.)"""
    return lead(state, seat, 0)


def cutoff_evaluate(state: dict, seat: int) -> float:
    """The search's judgement of a playout its depth cut: :func:`evaluate`, and each piece
    still standing worth ``STANDING_PIECE`` more, for the escapes it has still to come.

    One ply (greedy) and a short playout see an escape's points and bonus (G-5.2, G-5.3)
    and never what the seat gives up with it: a seat whose pieces are all out scores
    nothing more while the others' pieces go on gathering rocks (G-7.1 ends the game only
    when one seat's pieces are left). Seeded games lost so showed the strong seat out by
    a third of the game with three small escapes and their bonuses, then overtaken."""
    return lead(state, seat, STANDING_PIECE)


def lead(state: dict, seat: int, standing: float) -> float:
    """The seat's escapes, what its standing pieces stand on and ``standing`` for each of
    them, against the best other seat's."""
    worth = [0.0] * state["players"]
    for escape in state["escapes"]:
        worth[escape["seat"] - 1] += escape["points"] + escape["bonus"]
    if state["to_move"]:
        rocks = state["rocks"]
        for index, plates in enumerate(state["pieces"]):
            worth[index] += ROCK_UNDER_PIECE * sum(rocks[p] for p in plates) \
                + standing * len(plates)
    mine = worth.pop(seat - 1)
    return mine - max(worth)


def playout_move(state: dict, seat: int, moves: list, rnd) -> dict:
    """Playouts move as a careful player would: mostly the piece move that gains most on
    its own (:func:`move_gain`, ties at random), now and then any move. Placements and
    passes are drawn uniformly.

    A uniform playout lets the seats give their rich plates away and never builds one
    up, so it misjudges what a position is worth; this policy, which costs a glance at
    each move, lifted the strong bot's wins against greedy from about 59 % to 80 % on
    the same 30 seeded games (1,000 iterations a move)."""
    if moves[0]["type"] != "move" or rnd.random() < PLAYOUT_EXPLORATION:
        return rnd.choice(moves)
    glance = Glance(state, seat)  # what every move's gain reads, gathered once a step
    best, most = [], None
    for move in moves:
        gain = glance.gain(move)
        if most is None or gain > most:
            best, most = [move], gain
        elif gain == most:
            best.append(move)
    return rnd.choice(best)


def move_gain(state: dict, seat: int, move: dict) -> float:
    """What a piece move changes of the seat's ``evaluate`` by itself: an escape's points
    and bonus (G-5.2, G-5.3) less the rocks the piece stood on; else the rocks of the
    plate it moves to less those it leaves, and the pushed rock (G-4.2) landing under a
    piece, the seat's own or another's."""
    return Glance(state, seat).gain(move)


class Glance:
    """The seat's position as :func:`move_gain` reads it: the rocks, the next escape's
    bonus and the plates under its own pieces and under anyone's (a playout step judges
    every listed move against the one position)."""

    __slots__ = ("rocks", "bonus", "own", "taken")

    def __init__(self, state: dict, seat: int):
        self.rocks = state["rocks"]
        self.bonus = escape_bonus(len(state["escapes"]) + 1)
        self.own = set(state["pieces"][seat - 1])
        self.taken = {plate for plates in state["pieces"] for plate in plates}

    def gain(self, move: dict) -> float:
        rocks, origin = self.rocks, move["from"]
        if rocks[move["to"]] == 0:
            return rocks[origin] + self.bonus - ROCK_UNDER_PIECE * rocks[origin]
        gain = ROCK_UNDER_PIECE * (rocks[move["to"]] - rocks[origin])
        if move["rock"] is not None:
            # a rock never lands on its origin: under the mover's new plate or an own piece
            lands = step(origin, move["rock"])
            if lands == move["to"] or lands in self.own:
                gain += ROCK_UNDER_PIECE
            elif lands in self.taken:
                gain -= ROCK_UNDER_PIECE
        return gain
