"""Which option sets make a Vectron game (V-1.3, V-1.4, V-5.6).

A mix is refused when the game could not be set up with it, or when some
setup would leave every gauge at 0 for ever: a gauge rises only when a seat
takes a gate (V-5.2, V-5.4), and with every gauge at 0 a 2-player settlement
scores 0–0 (V-6.2), so the game could never end; with 3–4 players every
settlement would be a tie.

Where a piece can go: O and D cards move it within groups of cells that it
never leaves (a D card keeps the colour x + y, V-4.2, V-4.3); S cards move it
only onto a swap chip's cell, the swap chip taking its place (V-4.4, V-5.3).
So whatever moves, each group keeps its number of pieces (and of swap chips,
when the deck holds S cards): if the grid shuffle (V-2.2) puts every piece,
and those swap chips, in groups holding no gate, no piece ever reaches one.
"""

from functools import lru_cache

from referee.errors import InvalidOptions

from .board import (
    CARD_COUNT, CARDS, CELLS, CHIPS, GATE, MAP_CHIP_COUNT, START_CHIP, SWAP, SWAP_CARD,
    SWAP_CHIP_COUNT, destinations,
)
from .wording import words

MOVING_CARDS = tuple(c for c in CARDS if c != SWAP_CARD)
JUST3_TEXT = ("V-5.6 Just 3 bonus: named in the manual but its text is lost. The engine calls "
              "its hook after every move and at every end of turn, and ships it off: only "
              "false is accepted until the rule is known.")


def check_options(options: dict, players: int) -> None:
    """Raise InvalidOptions, naming the option and citing its rule, for a mix the game
    cannot be set up or ended with."""
    chips, cards = options["map_chips"], options["action_cards"]
    _check_mix("map_chips", chips, CHIPS, MAP_CHIP_COUNT, "V-1.3")
    if chips[SWAP] != SWAP_CHIP_COUNT:
        raise InvalidOptions(f"map_chips must hold exactly {SWAP_CHIP_COUNT} swap chips, "
                             f"not {chips[SWAP]}", rule="V-1.3")
    if chips[START_CHIP] < players:
        raise InvalidOptions(f"map_chips must hold at least {players} star2 chips, one per "
                             f"seat (V-2.1), not {chips[START_CHIP]}", rule="V-2.1")
    if chips[GATE] < 1:
        raise InvalidOptions("map_chips must hold at least 1 gate: without one no gauge can "
                             "rise (V-5.2) and a 2-player game could never end", rule="V-1.3")
    _check_mix("action_cards", cards, CARDS, CARD_COUNT, "V-1.4")
    moving = tuple(c for c in MOVING_CARDS if cards[c])
    trap = gateless_groups(moving, cards[SWAP_CARD] > 0, players, chips[GATE])
    if trap is not None:
        raise InvalidOptions(_trap_text(moving, cards[SWAP_CARD] > 0, players, chips[GATE],
                                        trap), rule="V-1.4")
    if options["just3_bonus"] is not False:
        raise InvalidOptions(f"just3_bonus must be false. {JUST3_TEXT}", rule="V-5.6")


def _check_mix(name: str, mix, kinds, total: int, rule: str) -> None:
    if not isinstance(mix, dict) or set(mix) != set(kinds):
        raise InvalidOptions(f"{name} must be an object giving a count for each of "
                             f"{words(kinds)}, and nothing else", rule=rule)
    if not all(type(n) is int and n >= 0 for n in mix.values()):
        raise InvalidOptions(f"{name}: every count must be a non-negative integer", rule=rule)
    if sum(mix.values()) != total:
        raise InvalidOptions(f"{name} must add up to {total}, not {sum(mix.values())}",
                             rule=rule)


@lru_cache(maxsize=None)
def cell_groups(moving: tuple[str, ...]) -> tuple[frozenset, ...]:
    """The groups of cells a piece moved by these O/D cards alone never leaves."""
    groups, seen = [], set()
    for start in CELLS:
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            cell = todo.pop()
            if cell not in group:
                group.add(cell)
                todo.extend(d for card in moving for d in destinations(cell, card))
        seen |= group
        groups.append(frozenset(group))
    return tuple(groups)


@lru_cache(maxsize=None)
def gateless_groups(moving: tuple[str, ...], swap_cards: bool, players: int,
                    gates: int) -> tuple[frozenset, ...] | None:
    """Groups a layout could fill with every piece (and, with S cards, both swap chips)
    and no gate; None when there are none, i.e. a gate is always within reach.

    The groups' cells must hold those things plus star chips only: at least
    ``players`` (+ 2) cells, and at most the 16 − ``gates`` that gates leave free.
    """
    least = players + (SWAP_CHIP_COUNT if swap_cards else 0)
    most = len(CELLS) - gates
    by_size = {0: ()}  # cells → one choice of groups covering that many
    for group in cell_groups(moving):
        for size, chosen in list(by_size.items()):
            by_size.setdefault(size + len(group), chosen + (group,))
    return next((by_size[n] for n in range(least, most + 1) if n in by_size), None)


def _trap_text(moving, swap_cards, players, gates, trap) -> str:
    things = "every piece" + (" and both swap chips" if swap_cards else "")
    ending = ("the game could never end (equal gauges score 0, V-6.2)" if players == 2 else
              "every settlement would be a tie")
    if not moving:
        how = ("action_cards hold no O or D card: an S card only trades a piece with a swap "
               "chip (V-4.4, V-5.3), so no piece ever reaches a gate")
    else:
        sizes = " + ".join(str(len(g)) for g in cell_groups(moving))
        cells = sum(len(g) for g in trap)
        how = (f"action_cards: with {words(moving)} as the only O/D cards a piece never "
               f"leaves its group of cells (groups of {sizes} cells, V-4.2, V-4.3), and "
               f"the grid shuffle may put {things} in {cells} such cells without any of "
               f"the {gates} gates of map_chips")
    return (f"{how}; then no gauge can ever rise (V-5.2) and {ending}. O/D cards that let "
            "a piece reach every cell avoid this (O1 alone does, so does O3 with O2, D1 or "
            "D2), as do, for some mixes, more gates")

