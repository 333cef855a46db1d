"""Gematon's components as numbers, their arithmetic and the configurable ones' check.

What the rules, the position checks, the score, the score helper and the
component catalog share. Rule ids are those of ``services/gematon/RULES.md`` (GM-…).
"""

from referee.engine import repr_json
from referee.errors import InvalidOptions

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # GM-1.1
VALUES = (1, 2, 4, 5, 7, 8)  # GM-1.2: no 3, 6, 9
CHIPS_PER_VALUE = 9
WHITE_ALTARS = ("w1", "w2", "w3")
BLACK_ALTAR = "black"
ALTARS = (*WHITE_ALTARS, BLACK_ALTAR)  # GM-1.3
ALTAR_CHIPS = 2  # GM-1.3: what an altar holds between turns
CELLS = 7  # GM-1.5
GAUGE_CELLS = 7  # GM-1.4: cells 0..6
ROUNDS = 7  # GM-5.1: one chip reaches the pentacle per turn
WITCHES = tuple(range(1, 7))  # GM-2.1: six witch boards, known by number
STACK_AT_REST = HAND_AT_REST = 2

# GM-1.5 referee decision: the Fano plane {i, i+1, i+3} mod 7, cells sorted.
FANO_LINES = [sorted((i, (i + 1) % CELLS, (i + 3) % CELLS)) for i in range(CELLS)]
# GM-1.6 referee decision: gauge cell k is worth k.
GAUGE_VALUES = list(range(GAUGE_CELLS))
# GM-1.6 referee decision: a gauge cell moves a pawn at most this far (the printed values
# are small; positions stay exact integers for every JSON client, far below 2**53).
MAX_BLESSING = 1000
# GM-1.7, GM-3.5–GM-3.7: the highest position a pawn can reach. Pawns start on 0..N−1;
# a penalty only swaps positions; a blessing of a squares raises the highest position by
# at most a (an overshoot only jumps pawns below it); each seat blesses at most once a turn.
MAX_POSITION = MAX_PLAYERS - 1 + MAX_PLAYERS * ROUNDS * MAX_BLESSING
PRINTED_SQUARES = 20  # GM-5.4: the track's last square; past it the table counts +20



def digital_root(number: int) -> int:
    """GM-3.4: sum the digits until one is left (for a positive number)."""
    return (number - 1) % 9 + 1


def operation(first: int, second: int) -> int:
    """GM-3.4: the digital root of the product of the two popped chips."""
    return digital_root(first * second)


def is_chip(value) -> bool:
    return type(value) is int and value in VALUES


def distinct_values(pentacle) -> int:
    """GM-3.4: the gauge equals the number of distinct values on the pentacle."""
    return len({v for v in pentacle if v is not None})


def complete_lines(pentacle, lines) -> list[list[int]]:
    """GM-1.5: the lines whose three cells hold chips (the sets)."""
    return [line for line in lines if None not in [pentacle[c] for c in line]]


def check_options(options: dict) -> None:
    """GM-1.5/GM-1.6/GM-2.1: the configurable referee decisions.

    No well-formed value can keep a game from its end: every turn places one
    chip, so the game ends after 7 rounds whatever the lines and values.
    """
    if type(options["draft"]) is not bool:
        raise InvalidOptions("option draft must be true or false (GM-2.1 expert draft)",
                             rule="GM-2.1")
    lines = options["pentacle_lines"]
    if not isinstance(lines, list) or len(lines) != CELLS:
        raise InvalidOptions(f"option pentacle_lines must list {CELLS} lines (GM-1.5)",
                             rule="GM-1.5")
    for n, line in enumerate(lines):
        if (not isinstance(line, list) or len(line) != 3
                or not all(type(c) is int and 0 <= c < CELLS for c in line)
                or len(set(line)) != 3):
            raise InvalidOptions(f"option pentacle_lines[{n}] must be 3 distinct cells from 0 "
                                 f"to {CELLS - 1}, not {repr_json(line)} (GM-1.5)",
                                 rule="GM-1.5")
    if len({tuple(sorted(line)) for line in lines}) != CELLS:
        raise InvalidOptions("option pentacle_lines must be 7 different lines (GM-1.5)",
                             rule="GM-1.5")
    values = options["blessing_values"]
    if (not isinstance(values, list) or len(values) != GAUGE_CELLS
            or not all(type(v) is int and 0 <= v <= MAX_BLESSING for v in values)):
        raise InvalidOptions(f"option blessing_values must list {GAUGE_CELLS} integers from 0 "
                             f"to {MAX_BLESSING}, one per gauge cell 0..6 (GM-1.6)",
                             rule="GM-1.6")
    if any(a > b for a, b in zip(values, values[1:])):
        raise InvalidOptions(f"option blessing_values must not decrease along the gauge: "
                             f"{repr_json(values)} (GM-1.6)", rule="GM-1.6")
