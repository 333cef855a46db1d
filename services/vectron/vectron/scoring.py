"""Vectron's score: settlement (V-6.2), the scoreboard of a game, and the score helper
(``/v1/calculate``), one settlement read off a real table.

The helper refuses what no game can produce: a gauge above 9, two gauges at 7 or
more, scores that no run of settlements adds up to, a game already over.
Why those bounds: a gauge rises only when a seat takes a gate, by the stars
of the chip it gives up, at most 3 (V-5.2, V-5.4), and one move raises at
most one seat's gauge (in a piece swap only a seat receiving a gate gains,
and if both held gates both gain 0). A turn ends as soon as a gauge reaches 7
(V-4.6), so when it is settled every gauge was at most 6 one move before.
"""

from functools import lru_cache
from itertools import product

from referee.errors import InvalidInput

from .board import GAUGE_LIMIT, MAX_PLAYERS, MIN_PLAYERS, STARS, WINNING_SCORE
from .wording import words

MOST_STARS = max(STARS.values())  # a star3 chip (V-1.3)
GAUGE_MAX = GAUGE_LIMIT - 1 + MOST_STARS  # 9
# V-6.2: a settlement's biggest gain is 2 players' difference (9 − 0), else players − 1
MOST_POINTS = max(GAUGE_MAX, MAX_PLAYERS - 1)
SCORE_MAX = WINNING_SCORE - 1 + MOST_POINTS  # 14: 5 before the settlement that ends the game
FIELDS = {"gauges", "scores"}


def dense_ranks(gauges: list[int]) -> list[int]:
    """V-6.2: rank 1 for the highest gauge, ties share a rank, ranks stay consecutive."""
    levels = sorted(set(gauges), reverse=True)
    return [levels.index(g) + 1 for g in gauges]


def settlement_points(gauges: list[int]) -> list[int]:
    """V-6.2: what each seat scores at a settlement, from the seats' gauges."""
    if len(gauges) == 2:
        difference = gauges[0] - gauges[1]
        return [max(difference, 0), max(-difference, 0)]
    return [len(gauges) - rank for rank in dense_ranks(gauges)]


def score(state: dict) -> list[dict]:
    """Each seat's score so far, its points from each settlement and its gauge now."""
    return [{"seat": s, "total": state["scores"][s - 1], "breakdown": {
        "settlements": [st["points"][s - 1] for st in state["settlements"]],
        "gauge": state["gauges"][s - 1]}}
        for s in range(1, state["players"] + 1)]


def settlement_board(board: dict) -> dict:
    """The helper's scoreboard: ``final`` says whether this settlement ends the game
    (V-6.4; each line's breakdown says so too), and before the end nobody has won.
    The answer has the shape every game's score has (no extra keys)."""
    ended = any(s["breakdown"]["ended"] for s in board["scores"])
    board["final"] = ended
    if not ended:
        board["winners"] = []
    return board


def settle(data) -> list[dict]:
    """``{gauges: [...], scores?: [...]}`` by seat → each seat's scoreboard entry."""
    gauges, scores = _checked(data)
    gains, ranks = settlement_points(gauges), dense_ranks(gauges)
    totals = [s + g for s, g in zip(scores, gains)]
    ended = max(totals) >= WINNING_SCORE
    return [{"seat": seat, "total": totals[seat - 1], "breakdown": {
        "gauge": gauges[seat - 1], "rank": ranks[seat - 1], "gain": gains[seat - 1],
        "before": scores[seat - 1], "ended": ended}}
        for seat in range(1, len(gauges) + 1)]


def _checked(data) -> tuple[list[int], list[int]]:
    if not isinstance(data, dict) or not set(data) <= FIELDS:
        raise InvalidInput("the input is an object with gauges and, optionally, scores")
    gauges, scores = data.get("gauges"), data.get("scores")
    if not isinstance(gauges, list) or not MIN_PLAYERS <= len(gauges) <= MAX_PLAYERS:
        raise InvalidInput(f"gauges must list {MIN_PLAYERS} to {MAX_PLAYERS} seats' gauges",
                           rule="V-1.1")
    if not all(type(g) is int and g >= 0 for g in gauges):
        raise InvalidInput("gauges must be non-negative integers", rule="V-6.2")
    problem = gauge_problem(gauges)
    if problem:
        raise InvalidInput(problem, rule="V-4.6")
    if scores is None:
        scores = [0] * len(gauges)
    if not isinstance(scores, list) or len(scores) != len(gauges) or not all(
            type(s) is int and s >= 0 for s in scores):
        raise InvalidInput("scores must give each seat's non-negative score, one per "
                           "gauge", rule="V-1.5")
    if max(scores) >= WINNING_SCORE:
        raise InvalidInput(f"a score of {WINNING_SCORE} or more has ended the game "
                           "already: no settlement follows", rule="V-6.4")
    if tuple(scores) not in reachable_scores(len(scores)):
        n = len(scores)
        raise InvalidInput(
            f"scores {words(scores)} are not a sum of earlier settlements: each {n}-player "
            f"settlement gives {n - 1} points to every seat with the highest gauge, one "
            "less to every seat with the next gauge, and so on", rule="V-6.2")
    return gauges, scores


def gauge_problem(gauges: list[int]) -> str | None:
    """Why a settlement cannot have these gauges (V-4.6), or None."""
    high = [seat for seat, g in enumerate(gauges, start=1) if g >= GAUGE_LIMIT]
    if len(high) > 1:
        return (f"seats {words(high)} each have a gauge of {GAUGE_LIMIT} or more, but the turn "
                f"ends as soon as one gauge reaches {GAUGE_LIMIT} and a move raises only one "
                "seat's gauge (V-5.2, V-5.4)")
    if max(gauges) > GAUGE_MAX:
        seat = gauges.index(max(gauges)) + 1
        return (f"seat {seat}'s gauge of {max(gauges)} cannot be settled: the turn ends as "
                f"soon as a gauge reaches {GAUGE_LIMIT} and a move adds at most {MOST_STARS} "
                f"stars (V-5.2), so a gauge is at most {GAUGE_MAX}")
    return None


@lru_cache(maxsize=None)
def reachable_scores(players: int) -> frozenset[tuple[int, ...]]:
    """Every line of scores, all below 6, that settlements of ``players`` seats can
    add up to (V-6.2): for 3–4 seats a settlement always gives someone players − 1."""
    gains = {tuple(settlement_points(list(g)))
             for g in product(range(GAUGE_MAX + 1), repeat=players) if not gauge_problem(list(g))}
    found, todo = set(), [(0,) * players]
    while todo:
        scores = todo.pop()
        if scores in found:
            continue
        found.add(scores)
        todo.extend(line for gain in gains
                    if max(line := tuple(s + g for s, g in zip(scores, gain))) < WINNING_SCORE)
    return frozenset(found)
