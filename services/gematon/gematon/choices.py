"""GM-3.4: what an Operate may do from a seat's stack, as the engine and its refusals see it."""

from . import witches
from .rules import BLACK_ALTAR, CELLS, WHITE_ALTARS, operation


def operate_choices(state: dict, seat: int) -> dict:
    """GM-3.4 for the seat's stack now: the result, the (altar, take) pairs, the cells.

    White altars holding the result come first; the black altar only when none does.
    """
    witch = witches.witch_of(state, seat)
    stack = state["seats"][seat - 1]["stack"]
    popped = [stack[-1], stack[-2]]
    result = witch.operation_result(state, seat, popped, operation(*popped))
    altars = state["altars"]
    white = [a for a in WHITE_ALTARS if result in altars[a]]
    if white:
        takes = [(a, result) for a in witch.altar_choices(state, seat, result, white)]
    else:
        usable = witch.altar_choices(state, seat, result, [BLACK_ALTAR])
        takes = [(a, v) for a in usable for v in sorted(set(altars[a]))]
    pentacle = state["seats"][seat - 1]["pentacle"]
    cells = witch.placement_cells(state, seat, [c for c in range(CELLS) if pentacle[c] is None])
    return {"popped": popped, "result": result, "takes": takes, "cells": cells}
