"""Paying for a Build: spheres from the ring, Converters and Discounts (Z-3.3, Z-5, Z-6.3).

A payment is what a Build move names: the multiset of spheres spent (a sorted
tuple of colours) and the Converters used (a sorted tuple of card ids). It is
legal when the spheres, run through conversions of exactly those Converters,
become the card's colour (any colours for a Generic gizmo) in an amount from
cost − discount to cost, and no Converter of the set could be left out (a
Converter that changes nothing is not "used": referee decision 6). Each
Converter works once per turn; its slots chain with other Converters' slots
(official Example 3) and its doublings add energy (Examples 1 and 2).

How the search is structured (it must stay fast with a dozen Converters):

1. A Converter slot is "X → any" (a *recolouring* of colour X), "X → XX" (a
   *doubling* of X), or "any → any" (303, 304), which can stand in for any
   recolouring: it is a *wildcard*, counted apart. What a set of Converters
   can do depends only on how many slots of each of the eight kinds it has
   and on its wildcards: its *capacity*. Counts per kind are packed into one
   integer (``_FIELD`` bits per kind), so adding and comparing them are a few
   integer operations.
2. Every spent sphere becomes a little tree of conversions: doublings split a
   unit in two, recolourings change a unit's colour. In a minimal payment no
   unit is recoloured twice in a row (the first slot could have given the
   final colour at once), so a recolouring is followed by a doubling or ends
   the tree on the card's colour. ``_grow`` lists, per sphere colour and
   number of units made, the minimal *use vectors* (slots used per kind, a
   wildcard counted as the recolouring it stands in for) of such trees that
   the capacity allows; it is memoised per colour and need.
3. ``_add_colour`` combines the spheres colour by colour into the minimal use
   vectors that turn a spend into the amount the card asks (a smaller use
   vector always does at least as much, so only minimal ones are kept).
4. ``_card_sets`` turns minimal use vectors back into minimal sets of
   Converters: counts per *type* of Converter (cards with the same slots are
   interchangeable) that cover a use vector with no card to spare, kept when
   no card at all could be left out; only then are the cards named.

Distinct payments are listed once each, not once per order of conversions.
``Search.nodes`` counts the work done (vectors combined, card sets tried);
a search that would exceed ``MAX_NODES`` stops with :class:`SearchTooLarge`,
far above what positions the rules can reach need (RULES.md, "Cost of the
payment search").
"""

import contextlib
import contextvars
from functools import lru_cache
from itertools import combinations, product

from referee.errors import InvalidState

from .cards import COLORS, effect

ANY = "any"
WILD = len(COLORS)  # the target "colour" of a Generic gizmo's cost: any colour will do
KINDS = (*(("recolour", c) for c in COLORS), *(("double", c) for c in COLORS))
_RECOLOUR = {c: i for i, c in enumerate(COLORS)}
_DOUBLE = {c: len(COLORS) + i for i, c in enumerate(COLORS)}
_FIELD = 8  # bits per kind; the top bit of each field guards comparisons
_UNIT = [1 << (_FIELD * i) for i in range(len(KINDS))]
_MASK = (1 << (_FIELD - 1)) - 1
# Vectors of counts (per kind of slot, or per type of Converter: at most 16 types) are
# compared field by field: the guard bits and the ones cover all 16 fields
_FIELDS = 16
_GUARD = sum(1 << (_FIELD * i + _FIELD - 1) for i in range(_FIELDS))
_ONES = sum(1 << (_FIELD * i) for i in range(_FIELDS))
_RECOLOURS = sum(_MASK << (_FIELD * i) for i in _RECOLOUR.values())  # their count bits
_DOUBLES_GUARD = sum(1 << (_FIELD * i + _FIELD - 1) for i in _DOUBLE.values())
MAX_NODES = 500_000


class SearchTooLarge(InvalidState):
    """The payment search went over its work budget: no position the rules can reach
    needs that much (the position checks refuse the ones that could)."""


class Tally:
    """The nodes of the payment searches run inside a :func:`tally` block."""

    nodes = 0


_TALLY: contextvars.ContextVar[Tally | None] = contextvars.ContextVar(
    "gizmos_payment_tally", default=None)


@contextlib.contextmanager
def tally():
    """Count the work of every payment search inside the block (tests and make bench
    count work, not time): ``with tally() as work: …; work.nodes``."""
    work = Tally()
    token = _TALLY.set(work)
    try:
        yield work
    finally:
        _TALLY.reset(token)


def counts(vector: int) -> list[int]:
    return [(vector >> (_FIELD * i)) & _MASK for i in range(len(KINDS))]


@lru_cache(maxsize=256)  # one entry per Converter card
def converter_slots(card_id: int) -> tuple[int, int]:
    """One Converter card's slots: ``(counts per kind, packed; wildcards)``."""
    vector = wildcards = 0
    for slot in effect(card_id)["slots"]:
        if slot["from"] == ANY:
            wildcards += 1
        elif slot["out"] == 2:
            vector += _UNIT[_DOUBLE[slot["from"]]]
        else:
            vector += _UNIT[_RECOLOUR[slot["from"]]]
    return vector, wildcards


def _support(vector: int) -> int:
    """Which counts of ``vector`` are not zero, as the guard bits of their fields.

    A vector only lies over vectors whose non-zero counts are among its own, so
    comparisons skip whole groups of vectors kept by their support.
    """
    return ((vector | _GUARD) - _ONES) & _GUARD


class _Under:
    """A set of vectors, grouped by support, asked whether any lies under a vector
    (componentwise)."""

    def __init__(self, vectors=()):
        self.groups: dict[int, list[int]] = {}
        for v in vectors:
            self.add(v)

    def add(self, vector: int) -> None:
        self.groups.setdefault(_support(vector), []).append(vector)

    def any_under(self, vector: int) -> bool:
        over, guard = vector | _GUARD, _GUARD
        support = (over - _ONES) & guard
        for mask, group in self.groups.items():
            if mask & support == mask:
                for k in group:
                    if (over - k) & guard == guard:
                        return True
        return False


def _minimal(vectors) -> list[int]:
    """The vectors no other vector of ``vectors`` lies under (componentwise), in
    ascending order as integers."""
    # A vector lying under another is also the smaller integer (its fields are packed
    # without carries), so in ascending order each vector meets every vector that could
    # lie under it first: one pass, comparing only against the vectors kept so far
    vectors = set(vectors)
    if len(vectors) < 2:
        return list(vectors)
    kept, groups, guard, ones = [], {}, _GUARD, _ONES
    for v in sorted(vectors):
        over = v | guard
        support = (over - ones) & guard
        for mask, group in groups.items():
            if mask & support == mask:
                for k in group:
                    if (over - k) & guard == guard:
                        break
                else:
                    continue
                break
        else:
            kept.append(v)
            if support in groups:
                groups[support].append(v)
            else:
                groups[support] = [v]
    return kept


class Capacity:
    """What some Converters can do: counts per kind (packed) and wildcards."""

    def __init__(self, vector: int, wildcards: int):
        self.vector, self.wildcards = vector, wildcards
        self.room = vector | _GUARD

    def allows(self, need: int) -> bool:
        """Whether these slots can supply ``need`` (a use vector): every doubling, and
        every recolouring but as many as the wildcards stand in for. (The loops that try
        many vectors first test ``(room - need) & _GUARD == _GUARD``, inline: whether the
        need fits without wildcards, as most do.)"""
        if (self.room - need) & _DOUBLES_GUARD != _DOUBLES_GUARD:
            return False
        short = (need | _GUARD) - self.vector  # fields at or over the capacity: guard set
        over = short & _GUARD
        return (short & (over - (over >> (_FIELD - 1))) & _RECOLOURS) % 255 <= self.wildcards


@lru_cache(maxsize=1024)
def _converter_set(cards: tuple[int, ...]) -> tuple:
    """What a set of Converters brings, worked out once per set: each card's slots,
    their capacity, its counts per kind, the doublings, and whether every Converter
    only recolours one colour ("X → any": the common case, searched directly by
    :meth:`Search._recoloured`). Nothing of it is changed afterwards."""
    slots = {card: converter_slots(card) for card in cards}
    capacity = Capacity(sum(v for v, _ in slots.values()), sum(w for _, w in slots.values()))
    per_kind = counts(capacity.vector)
    doublings = sum(per_kind[_DOUBLE[c]] for c in COLORS)
    recolourings_only = not capacity.wildcards and not capacity.vector & ~_RECOLOURS
    return slots, capacity, per_kind, doublings, recolourings_only


class Search:
    """The payments a ring and a set of available Converters allow.

    One search serves every card of one listing (the memos are keyed by what
    they depend on: target colour, sphere colour, units); ``nodes`` counts
    the work, and going over ``budget`` raises :class:`SearchTooLarge`.
    """

    def __init__(self, ring: dict, converters, budget: int | None = None):
        self.ring = tuple(ring.get(c, 0) for c in COLORS)
        (self.slots, self.capacity, self.capacity_counts, self.doublings,
         self.recolourings_only) = _converter_set(tuple(sorted(set(converters))))
        self.most_units = sum(self.ring) + self.doublings  # a doubling adds one unit
        self.nodes = 0
        self.tally = _TALLY.get()
        self.budget = MAX_NODES if budget is None else budget
        self._grown: dict = {}
        self._groups: dict = {}
        self._sets: dict = {}
        self._fills: dict = {}
        self._tight: dict = {}
        self._sides: dict = {}
        self._listed: dict = {}
        self._folded: dict = {}
        self._covered: dict = {}

    # --------------------------------------------------------------- answers
    def payments(self, target: str, low: int, high: int) -> list[tuple]:
        """Every ``(spend, converters)`` paying ``low``…``high`` of ``target``.

        ``target`` is a colour, or ``"any"`` for a Generic gizmo. Sorted by
        spend, then by converters.
        """
        low = max(low, 0)
        key = (target, low, high)
        if key not in self._listed:
            t = WILD if target == ANY else COLORS.index(target)
            if low > self.most_units:  # every sphere and every doubling would not do
                found = []
            elif not self.slots or t == WILD and self.recolourings_only:
                # spheres pay as they are: a recolouring would change nothing (so is not used)
                found = [(spend, ()) for spend in _plain_spends(self.ring, t, low, high)]
            elif self.recolourings_only:
                found = [(spend, cards) for spend, sets in self._recoloured(t, low, high)
                         for cards in sets]
            else:
                found = [(colours, cards) for spend, needs in self._spends(t, low, high)
                         for colours in [_colours(spend)] for cards in self._card_sets(needs)]
            found.sort()
            self._listed[key] = found
        return self._listed[key]

    def folded(self, target: str, low: int, high: int) -> list[tuple]:
        """Every spend paying ``low``…``high`` of ``target``, once:
        ``(spend, converters, others)``, ``converters`` the first of its minimal
        Converter sets in :meth:`payments`' order and ``others`` whether it has more.

        Listing every set of every spend costs far more than the spends
        (RULES.md, "One card's ways to pay"); one spend's sets are
        :meth:`spend_payments`. Sorted by spend.
        """
        low = max(low, 0)
        key = (target, low, high)
        if key not in self._folded:
            t = WILD if target == ANY else COLORS.index(target)
            if low > self.most_units:
                found = []
            elif not self.slots or t == WILD and self.recolourings_only:
                found = [(spend, (), False) for spend in _plain_spends(self.ring, t, low, high)]
            elif self.recolourings_only:
                found = [(spend, sets[0], len(sets) > 1)
                         for spend, sets in self._recoloured(t, low, high)]
            else:
                found = [(_colours(spend), *self._first_set(needs))
                         for spend, needs in self._spends(t, low, high)]
            found.sort()
            self._folded[key] = found
        return self._folded[key]

    def spend_payments(self, target: str, low: int, high: int, spend: dict) -> list[tuple]:
        """Every ``(spend, converters)`` paying ``low``…``high`` of ``target`` with
        exactly ``spend`` (counts per colour): one spend's minimal Converter sets, in
        :meth:`payments`' order; none when that spend cannot pay."""
        needs = self._needs(target, low, high, spend)
        if not needs:
            return []
        colours = _colours(tuple(spend.get(c, 0) for c in COLORS))
        return [(colours, cards) for cards in self._card_sets(needs)]

    def can_pay(self, target: str, low: int, high: int) -> bool:
        """Whether some payment exists (the search stops at the first spend that pays)."""
        t = WILD if target == ANY else COLORS.index(target)
        return next(iter(self._spends(t, max(low, 0), high)), None) is not None

    def pays_exactly(self, target: str, low: int, high: int, spend: dict) -> bool:
        """Whether ``spend`` with all of this search's Converters is a payment
        (and none of them could be left out): the check a Build move needs."""
        needs = self._needs(target, low, high, spend)
        covered = _Covered(needs)
        whole = self.capacity
        return bool(needs) and not any(
            covered(whole.vector - v, whole.wildcards - w) for v, w in self.slots.values())

    def _needs(self, target: str, low: int, high: int, spend: dict) -> list[int]:
        """The minimal use vectors turning exactly ``spend`` into what the card asks."""
        t = WILD if target == ANY else COLORS.index(target)
        wanted = tuple(spend.get(c, 0) for c in COLORS)
        if any(w > have for w, have in zip(wanted, self.ring)):
            return []
        amount = max(low, 0, sum(wanted))
        if amount > high:
            return []
        partial, used = {0: [0]}, 0
        for x, n in enumerate(wanted):
            used += n
            partial = self._add_colour(t, x, n, partial, max(amount, used))
        return partial.get(amount, [])

    # ---------------------------------------------------------------- search
    def _recoloured(self, t: int, low: int, high: int) -> list[tuple]:
        """``(spend, its card sets, sorted)`` for :meth:`payments` when every Converter
        only recolours one colour (``X → any``):
        each sphere is one unit, of the card's colour as it is or recoloured by a slot
        of its own colour, so a spend of ``low``…``high`` spheres pays when each other
        colour has slots enough, and its card sets are the minimal covers per colour."""
        capacity = self.capacity_counts
        most = [self.ring[x] if x == t else min(self.ring[x], capacity[_RECOLOUR[c]])
                for x, c in enumerate(COLORS)]
        found = []
        for spend in product(*(range(n + 1) for n in most)):
            if not low <= sum(spend) <= high:
                continue
            colours = _colours(spend)
            per_colour = [self._covers(x, n) for x, n in enumerate(spend) if n and x != t]
            self._count(1)
            sets = sorted(tuple(sorted(c for cover in covers for c in cover))
                          for covers in product(*per_colour))
            if sets:
                found.append((colours, sets))
        return found

    def _covers(self, x: int, need: int) -> list[tuple]:
        """The sets of Converters recolouring colour ``x`` with ``need`` slots or more
        from which no card could be left out."""
        key = (x, need)
        if key not in self._covered:
            kind = _RECOLOUR[COLORS[x]]
            slots = ((card, vector >> (_FIELD * kind) & _MASK)
                     for card, (vector, _) in self.slots.items())
            cards = [(card, n) for card, n in slots if n]
            found = []
            for size in range(1, len(cards) + 1):
                for chosen in combinations(cards, size):
                    total = sum(n for _, n in chosen)
                    if total >= need and all(total - n < need for _, n in chosen):
                        found.append(tuple(card for card, _ in chosen))
            self._covered[key] = found
        return self._covered[key]

    def _count(self, n: int) -> None:
        self.nodes += n
        if self.tally is not None:
            self.tally.nodes += n
        if self.nodes > self.budget:
            raise SearchTooLarge(f"the payment search went over {self.budget} steps; no "
                                 "position the rules can reach needs that many")

    def _spends(self, t: int, low: int, high: int):
        """``(spend, needs)`` for every spend (counts per colour) of at most
        ``high`` ring spheres that can pay: ``needs`` are its minimal use
        vectors. Spends sharing their first colours share that work.

        A spend of n spheres is made to give max(low, n) units, no more: a
        payment giving more gives that much too with one doubling left out
        (a doubling whose two units need nothing more can always be undone,
        and the recolourings after it then need one slot fewer), so the
        minimal payments are all found at that amount.
        """
        def extend(x, spend, used, partial):
            if x == len(COLORS):
                needs = partial.get(max(low, used))
                if needs:
                    yield spend, needs
                return
            later = sum(self.ring[x + 1:])
            # a sphere that is not of the card's colour pays only through a recolouring
            usable = t in (x, WILD) or self.capacity.allows(_UNIT[_RECOLOUR[COLORS[x]]])
            for n in range(min(self.ring[x], high - used) + 1 if usable else 1):
                if used + n + later + self.doublings < low:
                    continue  # even every later sphere and doubling could not make enough
                # with no sphere after these, only the amount the spend must give is of use
                after = self._add_colour(t, x, n, partial, max(low, used + n), exact=not later)
                if after:
                    yield from extend(x + 1, (*spend, n), used + n, after)
        return extend(0, (), 0, {0: [0]})

    def _add_colour(self, t: int, x: int, n: int, partial: dict, most: int,
                    exact: bool = False) -> dict:
        """``partial`` (units made so far → minimal use vectors) after ``n``
        more spheres of colour ``x``, making at most ``most`` units in all
        (``exact``: exactly ``most``)."""
        if not n:
            return {most: partial[most]} if exact and most in partial else (
                {} if exact else partial)
        after: dict[int, set[int]] = {}
        for made, vectors in partial.items():
            for units in range(max(n, most - made) if exact else n, most - made + 1):
                group = self._group(t, x, n, units, units)
                self._count(len(vectors) * len(group))
                after.setdefault(made + units, set()).update(
                    a + b for a in vectors for b in group)
        return {made: _minimal(vs) for made, sums in after.items()
                if (vs := self._allowed(sums))}

    def _allowed(self, needs) -> list[int]:
        """Those of ``needs`` (use vectors) the capacity allows: sums are gathered in a
        set first, as many come up more than once, so each is checked once."""
        allows, room, guard = self.capacity.allows, self.capacity.room, _GUARD
        return [v for v in needs if (room - v) & guard == guard or allows(v)]

    def _grow(self, t: int, x: int, k: int, fresh: bool) -> list[int]:
        """Minimal use vectors turning one unit of colour ``x`` into ``k`` units
        of the target ``t``; ``fresh``: the unit may still be recoloured."""
        key = (t, x, k, fresh)
        if key in self._grown:
            return self._grown[key]
        allows, found = self.capacity.allows, set()
        recolour = _UNIT[_RECOLOUR[COLORS[x]]]
        fresh = fresh and allows(recolour)
        if k == 1:
            if t in (x, WILD):
                found.add(0)
            elif fresh and t < WILD:  # one recolouring makes it the card's colour
                found.add(recolour)
        else:
            double = _UNIT[_DOUBLE[COLORS[x]]]
            if allows(double):  # double it: each half makes part of the units
                for k1 in range(1, k // 2 + 1):
                    left = self._grow(t, x, k1, True)
                    right = self._grow(t, x, k - k1, True)
                    self._count(len(left) * len(right))
                    if k1 == k - k1:  # the halves are alike: each pair once
                        found.update(double + a + b for i, a in enumerate(left)
                                     for b in left[i:])
                    else:
                        found.update(double + a + b for a in left for b in right)
            if fresh:  # recolour it to a colour that is then doubled
                for y in range(len(COLORS)):
                    if y != x:
                        rest = self._grow(t, y, k, False)
                        self._count(len(rest))
                        found.update(recolour + r for r in rest)
        self._grown[key] = result = _minimal(self._allowed(found))
        return result

    def _group(self, t: int, x: int, n: int, units: int, largest: int) -> list[int]:
        """Minimal use vectors turning ``n`` spheres of colour ``x`` into ``units``
        units of ``t``, no sphere making more than ``largest`` (each split once)."""
        if n == 0:
            return [0] if units == 0 else []
        key = (t, x, n, units, largest)
        if key in self._groups:
            return self._groups[key]
        found = set()
        for k in range(min(largest, units - n + 1), 0, -1):
            if k * n < units:
                break
            first = self._grow(t, x, k, True)
            rest = self._group(t, x, n - 1, units - k, k)
            self._count(len(first) * len(rest))
            found.update(a + b for a in first for b in rest)
        self._groups[key] = result = _minimal(self._allowed(found))
        return result

    # ------------------------------------------------------------- card sets
    def _set_up_types(self) -> None:
        """The tables the card sets are chosen from (made when the first is needed)."""
        # Converters with the same slots are interchangeable: the search works
        # with these *types* and names the cards only when it lists a payment
        self.types = sorted({s: [c for c in self.slots if self.slots[c] == s]
                             for s in self.slots.values()}.items())
        per_type = [counts(v) for (v, _), _ in self.types]
        # types with slots of two kinds (305, 306) or wildcards (303, 304) are chosen
        # first; the others kind by kind, among the types with slots of that kind
        mixed = [i for i, ((v, w), _) in enumerate(self.types)
                 if w or sum(1 for n in per_type[i] if n) > 1]
        self.owners = [[(i, c[kind], len(self.types[i][1])) for i, c in enumerate(per_type)
                        if c[kind] and i not in mixed] for kind in range(len(KINDS))]
        self.picks = [[list(combinations(cards, n)) for n in range(len(cards) + 1)]
                      for _, cards in self.types]
        # a need's recolourings and its doublings are supplied by different cards (no
        # Converter has slots of both sorts), so each side's choices are made apart
        recolouring = {i for i, ((v, w), _) in enumerate(self.types) if w or v & _RECOLOURS}
        assert not any(v & ~_RECOLOURS for (v, _), _ in (self.types[i] for i in recolouring))
        self.mixed_slots = {side: [(i, per_type[i], self.types[i][0][1], len(self.types[i][1]))
                                   for i in mixed if (i in recolouring) == side]
                            for side in (True, False)}

    def _card_sets(self, needs: list[int]) -> list[tuple]:
        """The minimal sets of Converter cards whose slots supply one of ``needs``.

        Worked out as counts of cards per type, packed like use vectors (one
        field per type): for each need, every choice that supplies it with no
        card to spare (:meth:`_tight_covers`). A choice is a minimal set exactly
        when no other choice lies under it: a choice with a card to spare holds,
        without that card, a choice for some need with no card to spare. Only
        the minimal ones are turned into cards.
        """
        key = tuple(needs)
        if key in self._sets:
            return self._sets[key]
        found = []
        for chosen in self._choices(needs):
            picks = [self.picks[i][n] for i in range(len(self.types))
                     if (n := (chosen >> (_FIELD * i)) & _MASK)]
            named = [tuple(sorted(c for cards in picked for c in cards))
                     for picked in product(*picks)]
            self._count(len(named))
            found += named
        found.sort()
        self._sets[key] = found
        return found

    def _choices(self, needs: list[int]) -> list[int]:
        """The minimal choices of cards (counts per type, packed) supplying one of
        ``needs``: :meth:`_card_sets` before the cards are named."""
        return _minimal(self._covering(needs))

    def _covering(self, needs: list[int]) -> set[int]:
        """The choices supplying one of ``needs`` with no card to spare for it (some
        may still lie over others): every minimal choice is among them."""
        if not hasattr(self, "types"):
            self._set_up_types()
        choices = set()
        for need in needs:
            choices.update(self._tight_covers(need))
        self._count(len(choices))
        return choices

    def _first_set(self, needs: list[int]) -> tuple[tuple, bool]:
        """One of :meth:`_card_sets` (``needs``) and whether there are more, without
        sifting every minimal choice out or naming it (the costliest part of a listing).

        The smallest choice as an integer is minimal (a choice lying under it would be
        smaller), named with the lowest ids of each type. Every choice lies over it
        exactly when no other set is minimal (a choice that does not lies over some
        minimal choice, which is then another).
        """
        choices = self._covering(needs)
        chosen, guard = min(choices), _GUARD
        parts = [(i, n) for i in range(len(self.types))
                 if (n := (chosen >> (_FIELD * i)) & _MASK)]
        more = any(len(self.picks[i][n]) > 1 for i, n in parts) or any(
            ((k | guard) - chosen) & guard != guard for k in choices)
        return tuple(sorted(c for i, n in parts for c in self.types[i][1][:n])), more

    def _tight_covers(self, need: int) -> set[int]:
        """The choices of cards (counts per type, packed) supplying ``need`` from
        which no card can be left out while still supplying it, and perhaps a few
        more (:func:`_minimal` drops those).

        The recolourings and the doublings are chosen apart (:meth:`_side`): no
        Converter has slots of both sorts.
        """
        if need not in self._tight:
            recolourings = self._side(need & _RECOLOURS, True)
            doublings = self._side(need & ~_RECOLOURS, False)
            self._count(len(recolourings) * len(doublings))
            self._tight[need] = {r + d for r in recolourings for d in doublings}
        return self._tight[need]

    def _side(self, need: int, recolouring: bool) -> list[int]:
        """:meth:`_tight_covers` for a need of recolourings only, or of doublings only."""
        key = (need, recolouring)
        if key in self._sides:
            return self._sides[key]
        wanted = counts(need)
        mixed = self.mixed_slots[recolouring]
        found = set()
        for extra in product(*(range(n + 1) for *_, n in mixed)):
            chosen, missing, wildcards = 0, list(wanted), 0
            for (i, slots, wild, _), n in zip(mixed, extra):
                if n:
                    chosen += n << (_FIELD * i)
                    wildcards += n * wild
                    missing = [m - n * s for m, s in zip(missing, slots)]
            if any(n and not wild and all(m + s <= 0 for m, s in zip(missing, slots) if s)
                   for (i, slots, wild, _), n in zip(mixed, extra)):
                continue  # a card of this type brings nothing the need still lacks
            for stand_in in _spread(wildcards, tuple(max(m, 0) for m in missing[:len(COLORS)])):
                left = [m - s for m, s in zip(missing, stand_in)] + missing[len(stand_in):]
                per_kind = [self._fill(kind, m) for kind, m in enumerate(left) if m > 0]
                found.update(chosen + sum(parts) for parts in product(*per_kind))
        self._sides[key] = result = list(found)
        return result

    def _fill(self, kind: int, missing: int) -> list[int]:
        """Ways to bring ``missing`` slots of ``kind`` with cards of the types
        that have only slots of that kind, no card of them to spare (counts per
        type, packed)."""
        key = (kind, missing)
        if key not in self._fills:
            def fill(owners, missing):
                if not owners:
                    return
                (first, size, available), rest = owners[0], owners[1:]
                for n in range(available + 1):
                    left = missing - n * size
                    if left <= 0:
                        if left + size > 0:  # every card of this type is needed
                            yield n << (_FIELD * first)
                        return
                    for more in fill(rest, left):
                        yield (n << (_FIELD * first)) + more
            self._fills[key] = list(fill(self.owners[kind], missing))
        return self._fills[key]


def _colours(spend: tuple) -> tuple:
    """A spend as counts per colour, written out sphere by sphere: ``("red", "red", …)``."""
    return tuple(c for c, n in zip(COLORS, spend) for _ in range(n))


def _plain_spends(ring: tuple, t: int, low: int, high: int):
    """The spends paying ``low``…``high`` of ``t`` with no Converter: that many spheres of
    the card's colour, or of any colours for a Generic gizmo."""
    if t < WILD:
        return [(COLORS[t],) * n for n in range(low, min(high, ring[t]) + 1)]
    return [_colours(spend)
            for spend in product(*(range(n + 1) for n in ring)) if low <= sum(spend) <= high]


@lru_cache(maxsize=4096)
def _spread(wildcards: int, room: tuple) -> tuple:
    """Every way to hand out ``wildcards`` recolourings among colours, at most
    ``room[c]`` to colour c (the recolourings a need still lacks); none when
    there is more than room (a wildcard would be spare)."""
    if not room:
        return ((),) if wildcards == 0 else ()
    return tuple((n, *rest) for n in range(min(wildcards, room[0]) + 1)
                 for rest in _spread(wildcards - n, room[1:]))


class _Covered:
    """Whether Converters with these counts per kind and wildcards supply one of
    ``needs`` (memoised): each wildcard stands in for a recolouring of any colour.

    With ``a`` wildcards that is whether the counts alone supply a need with up
    to ``a`` of its recolourings taken off: those reduced needs are worked out
    once per number of wildcards.
    """

    def __init__(self, needs):
        self.needs = needs
        self.reduced: dict[int, _Under] = {0: _Under(needs)}
        self.known: dict[int, bool] = {}  # by vector << 4 | wildcards (at most 2 in play)

    def __call__(self, vector: int, wildcards: int) -> bool:
        key = vector << 4 | wildcards
        found = self.known.get(key)
        if found is None:
            if wildcards not in self.reduced:
                self.reduced[wildcards] = _Under(_minimal(
                    need - sum(n * _UNIT[_RECOLOUR[c]] for n, c in zip(taken, COLORS))
                    for need in self.needs
                    for recolourings in [counts(need)[:len(COLORS)]]
                    for taken in _spread(min(wildcards, sum(recolourings)), tuple(recolourings))))
            found = self.known[key] = self.reduced[wildcards].any_under(vector)
        return found


def payments(target: str, low: int, high: int, ring: dict, converters) -> list[tuple]:
    """Every minimal ``(spend, converters)`` paying ``low``…``high`` of ``target``."""
    return Search(ring, converters).payments(target, low, high)
