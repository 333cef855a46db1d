"""The score helper: what a table that played on real components reads off (GM-5.2).

Input::

    {"seats": [{"seat": 1, "track": 12, "pentacle": [1, 1, 1, 2, 4, 5, 7], "gauge": 4}, …],
     "turn_order": [1, 2, 3],                      # optional, first player first
     "options": {"pentacle_lines": …, "blessing_values": …}}   # optional

``pentacle`` lists the chips on cells 0..6; ``gauge`` (the marker's cell) defaults
to the number of distinct values on the pentacle, which is what GM-3.4 makes it.
"""

from referee.errors import InvalidInput, InvalidPlayers

from .rules import CELLS, CHIPS_PER_VALUE, GAUGE_CELLS, VALUES, distinct_values, is_chip, seat_score


def calculate(engine, data: dict) -> list[dict]:
    seats = data.get("seats")
    if not isinstance(seats, list) or not engine.min_players <= len(seats) <= engine.max_players:
        raise InvalidPlayers("seats must list 2 to 4 seats", rule="GM-1.1")
    n = len(seats)
    options = engine.resolve_options(data.get("options"), n)
    if not all(isinstance(s, dict) for s in seats) or sorted(
            s.get("seat") for s in seats if type(s.get("seat")) is int) != list(range(1, n + 1)):
        raise InvalidInput(f"seats must be numbered 1 to {n}, each once", rule="GM-1.1")
    order = data.get("turn_order", list(range(1, n + 1)))
    if not isinstance(order, list) or sorted(
            s for s in order if type(s) is int) != list(range(1, n + 1)) or len(order) != n:
        raise InvalidInput(f"turn_order must list seats 1 to {n}, each once", rule="GM-5.3")
    scores, used = [], {v: 0 for v in VALUES}
    for entry in sorted(seats, key=lambda s: s["seat"]):
        seat, track, pentacle = entry["seat"], entry.get("track"), entry.get("pentacle")
        if type(track) is not int or track < 0:
            raise InvalidInput(f"seat {seat}: track must be a non-negative integer",
                               rule="GM-1.7")
        if not isinstance(pentacle, list) or len(pentacle) != CELLS:
            raise InvalidInput(f"seat {seat}: a finished pentacle lists the {CELLS} chips on "
                               "cells 0..6", rule="GM-5.1")
        if not all(map(is_chip, pentacle)):
            raise InvalidInput(f"seat {seat}: chips are {list(VALUES)}, not "
                               f"{[c for c in pentacle if not is_chip(c)]}", rule="GM-1.2")
        gauge = entry.get("gauge", distinct_values(pentacle))
        if type(gauge) is not int or not 0 <= gauge < GAUGE_CELLS:
            raise InvalidInput(f"seat {seat}: gauge must be a cell from 0 to "
                               f"{GAUGE_CELLS - 1}", rule="GM-1.6")
        for chip in pentacle:
            used[chip] += 1
        scores.append(seat_score(seat, track, gauge, pentacle, options,
                                 order.index(seat) + 1))
    if len({s["breakdown"]["track"] for s in scores}) != n:
        raise InvalidInput("two pawns cannot hold the same track position", rule="GM-3.7")
    over = [v for v, count in used.items() if count > CHIPS_PER_VALUE]
    if over:
        raise InvalidInput(f"there are only {CHIPS_PER_VALUE} chips of each value; the "
                           f"pentacles hold more of {over}", rule="GM-1.2")
    return scores
