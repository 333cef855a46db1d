"""Paying for a Build: spheres from the ring, Converters and Discounts (Z-3.3, Z-5, Z-6.3).

A payment is what a Build move names: the multiset of spheres spent (a sorted
list of colours) and the Converters used (a sorted list of card ids). It is
legal when the spheres, run through conversions of exactly those Converters,
become the card's colour (any colours for a Generic gizmo) in an amount from
cost − discount to cost. Each Converter works once per turn; its slots chain
with other Converters' slots (official Example 3) and its doublings add
energy (Examples 1 and 2 show they add no more than that).

The search runs backwards from the energy the card needs: every unit of
needed energy is traced back through the conversions that could have made it
to the sphere that was spent. Slots with the same effect (two "red → any"
Converters, the twin slots of 213) are interchangeable for the energy, so the
search counts how many slots of each kind it used rather than which ones:
it visits each (units, uses per kind) pair once, which stays small with a
dozen Converters where tracking each slot grew exponentially. Only then are
the uses per kind turned into the Converters (cards) that can supply them.
Each distinct payment is yielded once, not once per order of conversions. Of
the payments that spend the same spheres only those with a minimal set of
Converters are kept: a Converter that changes nothing is not "used" (referee
decision, RULES.md); such minimal sets can only come from uses per kind that
are themselves minimal, which keeps the last step small.
"""

from functools import lru_cache
from itertools import combinations, product

from .cards import COLORS, effect

ANY = "any"
WILD = len(COLORS)  # index of a unit whose colour the card does not care about


def slots_of(converter_ids) -> tuple[tuple[int, str, str], ...]:
    """``(card id, "recolour"|"double", from colour or "any")`` for every slot."""
    found = []
    for card_id in sorted(converter_ids):
        for slot in effect(card_id)["slots"]:
            kind = "double" if slot["out"] == 2 else "recolour"
            found.append((card_id, kind, slot["from"]))
    return tuple(found)


def payments(target: str, low: int, high: int, ring: dict, slots: tuple) -> list[tuple]:
    """Every minimal ``(spend, converters)`` paying ``low``…``high`` of ``target``.

    ``target`` is a colour, or ``"any"`` for a Generic gizmo; ``ring`` maps
    colours to counts. ``spend`` is a sorted tuple of colours, ``converters``
    a sorted tuple of card ids.
    """
    counts = tuple(ring.get(c, 0) for c in COLORS)
    return list(_payments(target, max(low, 0), high, counts, slots))


@lru_cache(maxsize=4096)
def _payments(target, low, high, ring, slots):
    kinds = sorted({(kind, source) for _, kind, source in slots})
    cards_by_kind = [[card for card, kind, source in slots if (kind, source) == k]
                     for k in kinds]
    uses_by_spend: dict[tuple, set[tuple]] = {}
    seen = set()
    stack = []
    for amount in range(low, high + 1):
        units = [0] * (WILD + 1)
        units[WILD if target == ANY else COLORS.index(target)] = amount
        stack.append((tuple(units), (0,) * len(kinds)))
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        units, uses = node
        for spend in _spends(units, ring):
            uses_by_spend.setdefault(spend, set()).add(uses)
        for index, (kind, source) in enumerate(kinds):
            if uses[index] < len(cards_by_kind[index]):
                more = uses[:index] + (uses[index] + 1,) + uses[index + 1:]
                stack.extend((before, more) for before in _undo(units, kind, source))
    found = {spend: _minimal_cards(uses_by_spend[spend], cards_by_kind)
             for spend in uses_by_spend}
    return tuple((spend, converters) for spend in sorted(found)
                 for converters in sorted(found[spend]))


def _minimal_cards(uses_found: set[tuple], cards_by_kind: list[list[int]]) -> list[tuple]:
    """The minimal sets of Converters (cards) that can supply one of ``uses_found``."""
    least = [u for u in uses_found
             if not any(o != u and all(a <= b for a, b in zip(o, u)) for o in uses_found)]
    sets = set()
    for uses in least:
        choices = [combinations(range(len(cards)), n) for cards, n in zip(cards_by_kind, uses)]
        for picked in product(*choices):
            sets.add(frozenset(cards_by_kind[k][i] for k, slots in enumerate(picked)
                               for i in slots))
    return [tuple(sorted(s)) for s in sets if not any(other < s for other in sets)]


def _undo(units: tuple, kind: str, source: str):
    """The unit multisets one conversion of this slot could have been applied to."""
    if kind == "double":  # one unit of X became two: merge two units that can be X
        x = COLORS.index(source)
        wild = units[WILD]
        for from_x, from_wild in ((2, 0), (1, 1), (0, 2)):
            if units[x] >= from_x and wild >= from_wild:
                before = list(units)
                before[x] -= from_x - 1
                before[WILD] -= from_wild
                yield tuple(before)
        return
    # recolour: a unit of ``source`` (any colour for "any") was turned into this unit
    origins = range(len(COLORS)) if source == ANY else (COLORS.index(source),)
    for now in range(len(COLORS)):  # a wild unit needs no recolouring
        if units[now]:
            for origin in origins:
                if origin != now:
                    before = list(units)
                    before[now] -= 1
                    before[origin] += 1
                    yield tuple(before)


def _spends(units: tuple, ring: tuple):
    """The sphere multisets (sorted colour tuples) from ``ring`` these units can be."""
    rest = [have - need for have, need in zip(ring, units)]
    if min(rest) < 0:
        return
    fixed = [c for c, n in zip(COLORS, units) for _ in range(n)]
    for wild in _submultisets(rest, units[WILD]):
        yield tuple(sorted(fixed + wild))


def _submultisets(available: list[int], size: int, first: int = 0):
    """Every multiset of ``size`` colours, colour ``first`` onwards, within ``available``."""
    if size == 0:
        yield []
        return
    for index in range(first, len(COLORS)):
        if available[index]:
            available[index] -= 1
            for rest in _submultisets(available, size - 1, index):
                yield [COLORS[index], *rest]
            available[index] += 1
