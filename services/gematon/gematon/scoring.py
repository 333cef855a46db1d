"""GM-5: the score of a game (``score``, the tie rule ``rank_key``) and the score helper
(``calculate``): what a table that played on real components reads off.

The helper's input (its JSON Schema: ``wire.CALCULATE``)::

    {"seats": [{"seat": 1, "track": 12, "pentacle": [1, 1, 1, 2, 4, 5, 7], "gauge": 4}, …],
     "turn_order": [1, 2, 3],                      # optional, first player first
     "options": {"pentacle_lines": …, "blessing_values": …}}   # optional

``pentacle`` lists the chips on cells 0..6 of a finished game; ``gauge`` (the
marker's cell) is optional: GM-3.4 makes it the number of distinct values on
the pentacle, and a different one is refused. Only readings the rules can
produce are scored: RULES.md lists every refusal with its rule. Like
``position.py`` these checks take the witches to have no effect (GM-4.2).
"""

from typing import NamedTuple

from referee.engine import repr_json
from referee.errors import BadRequest, InvalidInput, InvalidPlayers

from . import witches
from .board import CELLS, CHIPS_PER_VALUE, GAUGE_CELLS, VALUES, distinct_values, is_chip
from .refusals import spoken

PATTERNS = {"pure": 12, "nine": 9, "cover": 3, "none": 0}  # GM-5.2


def score(state: dict) -> list[dict]:
    """GM-5.2 for every seat; the witches' end bonus once the game is over."""
    over = state["phase"] == "over"
    return [seat_score(n, s["position"], s["gauge"], s["pentacle"], state["options"], n,
                       witches.witch_of(state, n).end_bonus(state, n) if over else 0)
            for n, s in enumerate(state["seats"], 1)]


def rank_key(entry: dict) -> tuple:
    """GM-5.3: on equal scores the seat later in turn order ranks higher."""
    return entry["total"], entry["breakdown"]["turn_order"]


def pattern(values) -> str:
    """GM-5.2: the pattern of a complete line's three values (they never overlap)."""
    low, mid, high = sorted(values)
    if low == high:
        return "pure"
    if low + mid + high == 9:
        return "nine"
    if low + mid == high:
        return "cover"
    return "none"


def seat_score(seat: int, track: int, gauge: int, pentacle: list, options: dict,
               turn_order: int, witch_bonus: int = 0) -> dict:
    """GM-5.2: track + the gauge cell's value + each complete line's pattern.

    ``turn_order`` (1 = first player) rides in the breakdown for the tie rule (GM-5.3).
    """
    lines, pattern_counts, line_points = [], dict.fromkeys(("pure", "nine", "cover"), 0), 0
    for cells in options["pentacle_lines"]:
        values = [pentacle[c] for c in cells]
        if None in values:
            lines.append({"cells": list(cells), "values": values, "pattern": "incomplete",
                          "points": 0})
            continue
        name = pattern(values)
        points = PATTERNS[name]
        if name != "none":
            pattern_counts[name] += 1
        line_points += points
        lines.append({"cells": list(cells), "values": values, "pattern": name,
                      "points": points})
    gauge_points = options["blessing_values"][gauge]
    return {"seat": seat, "total": track + gauge_points + line_points + witch_bonus,
            "breakdown": {"track": track, "gauge": gauge_points, "gauge_cell": gauge,
                          "lines": lines, "line_points": line_points,
                          "patterns": pattern_counts, "witch": witch_bonus,
                          "turn_order": turn_order}}


def calculate(engine, data: dict) -> list[dict]:
    seats = data.get("seats")
    if not isinstance(seats, list) or not engine.min_players <= len(seats) <= engine.max_players:
        raise InvalidPlayers("seats must list 2 to 4 seats", rule="GM-1.1")
    n = len(seats)
    options = engine.resolve_options(data.get("options"), n)
    if not all(isinstance(s, dict) for s in seats):
        raise BadRequest("seats must be objects {seat, track, pentacle, gauge}")
    if sorted(s.get("seat") for s in seats if type(s.get("seat")) is int) != list(
            range(1, n + 1)):
        raise InvalidInput(f"seats must be numbered 1 to {n}, each once", rule="GM-1.1")
    order = data.get("turn_order", list(range(1, n + 1)))
    if not isinstance(order, list) or sorted(
            s for s in order if type(s) is int) != list(range(1, n + 1)) or len(order) != n:
        raise InvalidInput(f"turn_order must list seats 1 to {n}, each once", rule="GM-5.3")
    readings = sorted(seats, key=lambda s: s["seat"])
    for entry in readings:
        _check_reading(entry)
    _check_chips(readings)
    _check_tracks(readings, options)
    return [seat_score(s["seat"], s["track"], distinct_values(s["pentacle"]), s["pentacle"],
                       options, order.index(s["seat"]) + 1) for s in readings]


def _check_reading(entry: dict) -> None:
    """One seat's track, pentacle and gauge, each on its own (GM-1.7, GM-5.1, GM-1.2, GM-3.4)."""
    seat, track, pentacle = entry["seat"], entry.get("track"), entry.get("pentacle")
    if type(track) is not int or track < 0:
        raise InvalidInput(f"seat {seat}: track must be a non-negative integer, not "
                           f"{repr_json(track)}", rule="GM-1.7")
    if not isinstance(pentacle, list) or len(pentacle) != CELLS:
        raise InvalidInput(f"seat {seat}: a finished pentacle lists the {CELLS} chips on "
                           "cells 0..6", rule="GM-5.1")
    wrong = [c for c in pentacle if not is_chip(c)]
    if wrong:
        raise InvalidInput(f"seat {seat}: the chips are {spoken(VALUES)}, not "
                           f"{spoken(map(repr_json, wrong))}", rule="GM-1.2")
    distinct = distinct_values(pentacle)
    gauge = entry.get("gauge", distinct)
    if type(gauge) is not int or not 0 <= gauge < GAUGE_CELLS:
        raise InvalidInput(f"seat {seat}: gauge must be a cell from 0 to {GAUGE_CELLS - 1}, "
                           f"not {repr_json(gauge)}", rule="GM-1.6")
    if gauge != distinct:
        raise InvalidInput(f"seat {seat}: the gauge marker advances once per new value "
                           f"placed, so with {distinct} distinct values on the pentacle it "
                           f"stands on {distinct}, not {gauge}", rule="GM-3.4")


def _check_chips(readings: list[dict]) -> None:
    used = {v: sum(s["pentacle"].count(v) for s in readings) for v in VALUES}
    over = [v for v, count in used.items() if count > CHIPS_PER_VALUE]
    if over:
        raise InvalidInput(f"there are only {CHIPS_PER_VALUE} chips of each value; the "
                           f"pentacles hold more of {spoken(over)}", rule="GM-1.2")


def _check_tracks(readings: list[dict], options: dict) -> None:
    """The tracks the blessings of these pentacles can have led to (GM-1.7, GM-3.5–GM-3.7).

    The pawns start on 0..N−1. A penalty swaps two positions (the sum stays);
    a blessing of a squares moves one pawn a squares plus its overshoot, at
    most N−1 (one per pawn jumped), and raises the highest position by at most
    a. So the sum of the tracks lies between the starts plus the least the
    blessings can add and the starts plus the most they can add with every
    overshoot; and no track is beyond the highest start plus every blessing.
    """
    n = len(readings)
    tracks = [s["track"] for s in readings]
    if len(set(tracks)) != n:
        raise InvalidInput("two pawns cannot hold the same track position", rule="GM-3.7")
    bounds = [blessing_bounds(s["pentacle"], options["pentacle_lines"],
                              options["blessing_values"]) for s in readings]
    starts = n * (n - 1) // 2
    least = starts + sum(b.least for b in bounds)
    most = starts + sum(b.most + (n - 1) * b.turns for b in bounds)
    highest = n - 1 + sum(b.most for b in bounds)
    total = sum(tracks)
    if total < least:
        raise InvalidInput(f"the tracks add up to {total}, but pawns that start on 0 to "
                           f"{n - 1} and are blessed for these pentacles' sets add up to at "
                           f"least {least}", rule="GM-3.6")
    if total > most:
        raise InvalidInput(f"the tracks add up to {total}, but pawns that start on 0 to "
                           f"{n - 1} and are blessed for these pentacles' sets, every "
                           f"overshoot counted, add up to at most {most}", rule="GM-3.6")
    for s in readings:
        if s["track"] > highest:
            raise InvalidInput(f"seat {s['seat']}: no pawn can reach track {s['track']}; "
                               f"the highest start and every blessing these pentacles can "
                               f"have brought reach {highest}", rule="GM-3.6")


class Blessings(NamedTuple):
    least: int  # the least a seat's blessings add up to, over every order of placement
    most: int  # the most
    turns: int  # the most turns that bless


def blessing_bounds(pentacle: list, lines: list, values: list) -> Blessings:
    """GM-3.6 for a finished pentacle, over every order its cells can have been filled in.

    A turn that completes a line blesses by the value of the gauge then, which
    is the number of distinct values placed so far (GM-3.4). Each subset of
    filled cells (2^7 of them) keeps the least and most blessing to reach it.
    """
    masks = [sum(1 << c for c in line) for line in lines]
    full = (1 << CELLS) - 1
    least, most, turns = [0] + [None] * full, [0] + [None] * full, [0] + [None] * full
    for before in range(full):  # every subset comes after the subsets it grows from
        for cell in range(CELLS):
            after = before | 1 << cell
            if after == before:
                continue
            if any(m >> cell & 1 and m & after == m for m in masks):
                gauge = len({pentacle[c] for c in range(CELLS) if after >> c & 1})
                gain, turn = values[gauge], 1
            else:
                gain, turn = 0, 0
            for table, value, pick in ((least, least[before] + gain, min),
                                       (most, most[before] + gain, max),
                                       (turns, turns[before] + turn, max)):
                table[after] = value if table[after] is None else pick(table[after], value)
    return Blessings(least[full], most[full], turns[full])
