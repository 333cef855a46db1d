"""Gematon's components and arithmetic: what the engine and the score helper share.

Rule ids are those of ``services/gematon/RULES.md`` (GM-…).
"""

from referee.errors import InvalidOptions

VALUES = (1, 2, 4, 5, 7, 8)  # GM-1.2: no 3, 6, 9
CHIPS_PER_VALUE = 9
WHITE_ALTARS = ("w1", "w2", "w3")
BLACK_ALTAR = "black"
ALTARS = (*WHITE_ALTARS, BLACK_ALTAR)  # GM-1.3
CELLS = 7  # GM-1.5
GAUGE_CELLS = 7  # GM-1.4: cells 0..6
ROUNDS = 7  # GM-5.1: one chip reaches the pentacle per turn
WITCHES = tuple(range(1, 7))  # GM-2.1: six witch boards, known by number
STACK_AT_REST = HAND_AT_REST = 2

# GM-1.5 referee decision: the Fano plane {i, i+1, i+3} mod 7, cells sorted.
FANO_LINES = [sorted((i, (i + 1) % CELLS, (i + 3) % CELLS)) for i in range(CELLS)]
# GM-1.6 referee decision: gauge cell k is worth k.
GAUGE_VALUES = list(range(GAUGE_CELLS))

PATTERNS = {"pure": 12, "nine": 9, "cover": 3, "none": 0}  # GM-5.2


def digital_root(number: int) -> int:
    """GM-3.4: sum the digits until one is left (for a positive number)."""
    return (number - 1) % 9 + 1


def operation(first: int, second: int) -> int:
    """GM-3.4: the digital root of the product of the two popped chips."""
    return digital_root(first * second)


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


def is_chip(value) -> bool:
    return type(value) is int and value in VALUES


def distinct_values(pentacle) -> int:
    """GM-3.4: the gauge equals the number of distinct values on the pentacle."""
    return len({v for v in pentacle if v is not None})


def complete_lines(pentacle, lines) -> list[list[int]]:
    """GM-1.5: the lines whose three cells hold chips (the sets)."""
    return [line for line in lines if None not in [pentacle[c] for c in line]]


def check_options(options: dict) -> None:
    """GM-1.5/GM-1.6/GM-2.1: the configurable referee decisions."""
    if type(options["draft"]) is not bool:
        raise InvalidOptions("option draft must be true or false (GM-2.1 expert draft)")
    lines = options["pentacle_lines"]
    if not isinstance(lines, list) or len(lines) != CELLS:
        raise InvalidOptions(f"option pentacle_lines must list {CELLS} lines (GM-1.5)")
    for n, line in enumerate(lines):
        if (not isinstance(line, list) or len(line) != 3
                or not all(type(c) is int and 0 <= c < CELLS for c in line)
                or len(set(line)) != 3):
            raise InvalidOptions(f"pentacle_lines[{n}] must be 3 distinct cells from 0 to "
                                 f"{CELLS - 1}, not {line!r} (GM-1.5)")
    if len({tuple(sorted(line)) for line in lines}) != CELLS:
        raise InvalidOptions("pentacle_lines must be 7 different lines (GM-1.5)")
    values = options["blessing_values"]
    if (not isinstance(values, list) or len(values) != GAUGE_CELLS
            or not all(type(v) is int and v >= 0 for v in values)):
        raise InvalidOptions(f"option blessing_values must list {GAUGE_CELLS} non-negative "
                             "integers, one per gauge cell 0..6 (GM-1.6)")
    if any(a > b for a, b in zip(values, values[1:])):
        raise InvalidOptions(f"blessing_values must not decrease along the gauge: {values} "
                             "(GM-1.6)")


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
