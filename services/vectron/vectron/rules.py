"""Vectron's pure rule arithmetic: settlement (V-6.2) and what a destination does (V-5).

Shared by the engine, its state checks and the score helper; plain data in,
plain data out.
"""

from .board import GATE, HOLDABLE, STARS, SWAP, SWAP_CARD, destinations, piece

GAUGE_LIMIT = 7  # V-4.6, V-6.1
WINNING_SCORE = 6  # V-6.4


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


def piece_cell(grid: dict, seat: int) -> str:
    mark = piece(seat)
    return next(c for c, thing in grid.items() if thing == mark)


def land(state: dict, seat: int, dest: str) -> dict:
    """Move ``seat``'s piece onto ``dest`` with the effect V-5 gives it; the event.

    Mutates ``state`` (grid, held chips, fallen pieces, gauges).
    """
    grid, held, gauges = state["grid"], state["held"], state["gauges"]
    start = piece_cell(grid, seat)
    found = grid[dest]
    event = {"type": "piece_moved", "seat": seat, "from": start, "to": dest}
    if dest == start:  # V-5.5: kicked back to the start; the card counts as used
        event["result"] = "start"
    elif found in HOLDABLE:  # V-5.1, V-5.2: take the chip, leave the old one behind
        given = held[seat - 1]
        held[seat - 1], grid[dest], grid[start] = found, piece(seat), given
        event.update(result="gate" if found == GATE else "star", took=found, left=given)
        if found == GATE:
            event["gains"] = {str(seat): _gain(gauges, seat, STARS[given])}
    elif found == SWAP:  # V-5.3: piece and swap chip trade cells
        grid[dest], grid[start] = piece(seat), SWAP
        event["result"] = "swap"
    else:  # V-5.4: another piece: trade cells and chips, knock it down or stand it up
        other = int(found.removeprefix("seat"))
        mine, theirs = held[seat - 1], held[other - 1]
        grid[dest], grid[start] = piece(seat), piece(other)
        held[seat - 1], held[other - 1] = theirs, mine
        state["fallen"][other - 1] = not state["fallen"][other - 1]
        event.update(result="piece", other=other, took=theirs, gave=mine,
                     other_fallen=state["fallen"][other - 1])
        gains = {}
        if theirs == GATE:
            gains[str(seat)] = _gain(gauges, seat, STARS[mine])
        if mine == GATE:
            gains[str(other)] = _gain(gauges, other, STARS[theirs])
        if gains:
            event["gains"] = gains
    return event


def _gain(gauges: list[int], seat: int, stars: int) -> int:
    gauges[seat - 1] += stars
    return stars


def card_destinations(state: dict, seat: int) -> list[str]:
    """V-4.2–V-4.4: the cells the card under the cursor reaches, sorted."""
    card = state["columns"][seat - 1][state["cursor"]]
    grid = state["grid"]
    if card == SWAP_CARD:
        return sorted(c for c, thing in grid.items() if thing == SWAP)
    return destinations(piece_cell(grid, seat), card)


def is_first_move(state: dict, seat: int) -> bool:
    """V-4.1: the cursor still points at the top of the column."""
    return state["cursor"] == len(state["columns"][seat - 1]) - 1
