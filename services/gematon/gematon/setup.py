"""GM-2: the setup as a fixed sequence of steps, indexed by ``state["setup_step"]``.

Each step is a tuple:

- ``("deal", seat)``          chance: a random witch for ``seat`` (GM-2.1)
- ``("draw", into, holder)``  chance: a bag chip onto ``holder``'s stack or hand, or an altar
- ``("remove",)``             chance: a random witch goes back to the box (draft, GM-2.1)
- ``("pick", seat)``          ``seat`` picks a witch (draft, GM-2.1)

Referee decision: the draft happens at the end of the setup, after the chip
draws, as the rulebook's expert rule says ("準備の最後に"); the normal deal
comes first (GM-2.1 before GM-2.2).
"""

from functools import cache

from .board import ALTARS, WITCHES


@cache
def setup_steps(players: int, draft: bool) -> tuple:
    seats = range(1, players + 1)
    chips = [("draw", into, seat) for seat in seats
             for into in ("stack", "stack", "hand", "hand")]
    chips += [("draw", "altar", altar) for altar in ALTARS for _ in range(2)]
    if not draft:
        return tuple([("deal", seat) for seat in seats] + chips)
    removals = [("remove",)] * (len(WITCHES) - players)
    # counter-clockwise from the seat right of seat 1; seat 1 takes the last witch
    picks = [("pick", seat) for seat in range(players, 1, -1)]
    return tuple(chips + removals + picks)


def drawn_so_far(players: int, draft: bool, step: int) -> dict:
    """How many chips each place holds after the first ``step`` setup steps."""
    counts = {("stack", s): 0 for s in range(1, players + 1)}
    counts.update({("hand", s): 0 for s in range(1, players + 1)})
    counts.update({("altar", a): 0 for a in ALTARS})
    for entry in setup_steps(players, draft)[:step]:
        if entry[0] == "draw":
            counts[entry[1], entry[2]] += 1
    return counts


def free_witches(state: dict) -> list[int]:
    """The witches neither held by a seat nor back in the box."""
    taken = set(state["witches"]) | set(state["removed_witches"])
    return [w for w in WITCHES if w not in taken]
