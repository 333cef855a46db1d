"""The payment search (Z-3.3, Z-5, Z-6.3): the same payments as a slow, plain replay of
conversions; a Build accepted by checking its one payment; the work bounded and counted."""

import importlib.util
import random
from functools import lru_cache
from itertools import combinations
from pathlib import Path

import pytest

from gizmos.cards import CARDS, COLORS, effect
from gizmos import rules
from gizmos.payment import Search, payments, tally

from gizmos_helpers import GAME, WORK_BOUND, refused

CONVERTERS = sorted(c for c in CARDS if effect(c)["kind"] == "converter")


def _slots(cards):
    return tuple((card, slot["out"] == 2, slot["from"]) for card in cards
                 for slot in effect(card)["slots"])


@lru_cache(maxsize=None)
def _replays(units: tuple, slots: tuple, target: str, low: int, high: int) -> bool:
    """Whether conversions with some of ``slots`` turn ``units`` (sorted colours) into
    low…high units of ``target`` ("any": of any colours), one slot at a time."""
    if low <= len(units) <= high and (target == "any" or set(units) <= {target}):
        return True
    for i, (_, double, source) in enumerate(slots):
        rest = slots[:i] + slots[i + 1:]
        for j, unit in enumerate(units):
            if source not in (unit, "any"):
                continue
            others = units[:j] + units[j + 1:]
            made = [(unit, unit)] if double else [(c,) for c in COLORS if c != unit]
            for new in made:
                if _replays(tuple(sorted(others + new)), rest, target, low, high):
                    return True
    return False


def _replayed_payments(target, low, high, ring, converters):
    """Every (spend, minimal Converter set) found by replaying conversions."""
    spheres = [c for c in COLORS for _ in range(ring[c])]
    spends = {tuple(s) for n in range(high + 1) for s in combinations(spheres, n)}
    found = []
    for spend in sorted(spends):
        paying = [set(cards) for n in range(len(converters) + 1)
                  for cards in combinations(sorted(converters), n)
                  if _replays(spend, _slots(cards), target, max(low, 0), high)]
        found += [(spend, tuple(sorted(cards))) for cards in paying
                  if not any(other < cards for other in paying)]
    return sorted(found)


def _random_case(rnd, converters=4, spheres=4):
    ring = dict.fromkeys(COLORS, 0)
    for _ in range(rnd.randint(0, spheres)):
        ring[rnd.choice(COLORS)] += 1
    target = rnd.choice([*COLORS, "any"])
    high = 7 if target == "any" else rnd.randint(1, 4)
    low = high - rnd.choice([0, 0, 1, 2, 3])
    if target == "any":
        low, high = rnd.randint(1, 5), rnd.randint(5, 6)
    return target, low, high, ring, rnd.sample(CONVERTERS, rnd.randint(0, converters))


def test_Z_5_the_search_finds_exactly_the_payments_a_plain_replay_finds():
    """Z-5: spheres run through the chosen Converters' slots, chained in any order, pay
    the cost; only minimal Converter sets count (referee decision 6). 300 random rings,
    Converter sets and costs, checked against replaying every conversion one by one."""
    rnd = random.Random(5)
    checked = 0
    for _ in range(300):
        target, low, high, ring, converters = _random_case(rnd)
        expected = _replayed_payments(target, low, high, ring, converters)
        assert payments(target, low, high, ring, converters) == expected, (
            target, low, high, ring, converters)
        checked += len(expected)
    assert checked > 300  # the cases do pay, many ways


def _folds(listed: list[tuple], folded: list[tuple], spend_payments) -> int:
    """Check ``folded`` (``(spend, converters, others)``) is ``listed`` (every payment)
    folded by spend, and that each spend unfolds to its payments; the spends folded."""
    by_spend: dict = {}
    for spend, cards in listed:
        by_spend.setdefault(spend, []).append((spend, cards))
    assert [spend for spend, _, _ in folded] == list(by_spend)
    for spend, cards, others in folded:
        assert (spend, cards) in by_spend[spend] and others is (len(by_spend[spend]) > 1)
        assert spend_payments({c: spend.count(c) for c in COLORS}) == by_spend[spend]
    return len(folded)


def test_Z_5_the_listing_folded_by_spend_is_every_payment_folded():
    """Z-5 (RULES.md, "One card's ways to pay"): one entry per spend that pays, naming one
    of its minimal Converter sets and whether it has more; a spend's own listing is its
    payments. 300 random rings, Converter sets and costs, general and direct searches."""
    rnd = random.Random(33)
    folds = several = 0
    for case in range(300):
        target, low, high, ring, converters = _random_case(rnd)
        if case % 2:
            converters = rnd.sample(RECOLOURING, rnd.randint(1, 5))
        listed = Search(ring, converters).payments(target, low, high)
        search = Search(ring, converters)
        folded = search.folded(target, low, high)
        folds += _folds(listed, folded, lambda spent: search.spend_payments(
            target, low, high, spent))
        several += sum(others for _, _, others in folded)
    assert folds > 300 and several > 30


RECOLOURING = [c for c in CONVERTERS if all(
    slot["to"] == "any" and slot["from"] != "any" for slot in effect(c)["slots"])]


def test_Z_5_recolouring_converters_alone_are_listed_directly_and_exactly():
    """Z-5 with only "X → any" Converters (the common case, listed directly rather than
    by the general search): the same payments as replaying every conversion, and as the
    general search, on 300 random rings, sets of up to 5 such Converters and costs."""
    rnd = random.Random(14)
    checked = direct = 0
    for _ in range(300):
        target, low, high, ring, _ = _random_case(rnd, spheres=6)
        converters = rnd.sample(RECOLOURING, rnd.randint(1, 5))
        search, general = Search(ring, converters), Search(ring, converters)
        general.recolourings_only = False  # the general search, for comparison
        listed = search.payments(target, low, high)
        assert listed == _replayed_payments(target, low, high, ring, converters) == \
            general.payments(target, low, high), (target, low, high, ring, converters)
        direct += search.recolourings_only
        checked += len(listed)
    assert direct == 300 and checked > 300


def test_Z_5_a_payment_is_checked_directly_and_agrees_with_the_listing():
    """Z-3.3: accepting a Build checks the payment named (Search.pays_exactly) and agrees
    with the listing on every listed payment and on near misses of them."""
    rnd = random.Random(7)
    for _ in range(150):
        target, low, high, ring, converters = _random_case(rnd, converters=6, spheres=6)
        listed = set(payments(target, low, high, ring, converters))
        tried = set(listed)
        for spend, cards in list(listed)[:20]:
            tried.add((spend[1:], cards))
            tried.add((spend, cards[1:]))
            tried.add((tuple(sorted(spend + (rnd.choice(COLORS),))), cards))
            if converters:
                tried.add((spend, tuple(sorted(set(cards) | {rnd.choice(converters)}))))
        for spend, cards in tried:
            counted = {c: spend.count(c) for c in COLORS}
            paid = Search(ring, cards).pays_exactly(target, low, high, counted)
            assert paid == ((spend, cards) in listed), (target, low, high, ring, spend, cards)


def _bench():
    """bench/gizmos_positions.py: the costliest positions found (make bench times them)."""
    path = Path(__file__).resolve().parents[3] / "bench" / "gizmos_positions.py"
    spec = importlib.util.spec_from_file_location("gizmos_positions", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


# The search nodes each costliest position's whole listing takes today, a few per cent
# over what it was measured at (issue 33 item 3): a change that makes the search do more
# work fails here, counted, not timed. Listing every Converter set of every spend took
# 4,304 / 15,179 / 100,253 / 76,260 / 110,135 / 108,167 (111,925 at worst before the
# antichain filter ran in integer order and the last colour combined only the amount a
# spend must give); the listing folded by spend takes as many nodes or a few fewer, but
# no longer sifts or names every set (the time went with that, and with the answer's size).
NODE_BUDGET = {
    "issue-like: 8 Converters, 13 spheres": 4_700,
    "issue-like: 10 Converters, 15 spheres": 15_200,
    "3 Generic, 331, 332; 11 Converters, 12 spheres": 97_000,
    "3 Generic, 331; 13 Converters, 6 spheres": 73_000,
    "Research of 336, 331, 332; 13 Converters": 104_000,
    "Research of 336, 331, 332, 320; 13 Converters": 105_000,
}


@pytest.mark.parametrize("name", BENCH.COSTLIEST)
def test_Z_5_the_costliest_positions_found_list_their_moves_within_a_fixed_work(name):
    """Z-5, Z-3.3: listing every spend of every card in the costliest positions the
    position checks accept stays under a fixed number of search nodes, and under the
    nodes the search takes today for that position."""
    state = BENCH.costly_position(BENCH.COSTLIEST[name])
    with tally() as work:
        moves = GAME.legal_moves(state)
    assert len(moves) > 100
    assert 0 < work.nodes < WORK_BOUND
    assert work.nodes <= NODE_BUDGET[name], f"{name}: {work.nodes:,} search nodes"


@pytest.mark.parametrize("name", BENCH.COSTLIEST)
def test_Z_5_builds_are_listed_once_per_spend_and_unfold_to_every_payment(name):
    """Z-5, Z-3.3 (RULES.md, "One card's ways to pay"): the listing holds one Build per card
    and spend that pays, with one of its minimal Converter sets and ``other_converters``
    exactly when it has more; narrowed to the card and the spend it lists every set, and
    those are every payment the search finds (:meth:`Search.payments`), each accepted."""
    state = BENCH.costly_position(BENCH.COSTLIEST[name])
    folded = [m for m in GAME.legal_moves(state) if m["type"] == "build"]
    search = rules.payment_search(state, 1)
    sources = dict(rules._buildable(state, 1)) if state["phase"] == "main" else dict.fromkeys(
        state["research"]["cards"], "research")
    every = {(card, spend, converters)
             for card, source in sources.items()
             for spend, converters in search.payments(*rules._price(state, 1, card, source))}
    assert len({(m["card"], tuple(m["spend"])) for m in folded}) == len(folded)
    unfolded = set()
    for move in folded:
        narrowed = GAME.legal_moves(state, match={"card": move["card"],
                                                  "spend": move["spend"][::-1]})
        bare = {k: v for k, v in move.items() if k != "other_converters"}
        assert bare in narrowed and all(m["spend"] == move["spend"] for m in narrowed)
        assert move.get("other_converters", False) is (len(narrowed) > 1), move
        unfolded |= {(m["card"], tuple(m["spend"]), tuple(m["converters"])) for m in narrowed}
    assert unfolded == every
    rnd = random.Random(name)
    for move in rnd.sample(folded, 3):
        GAME.apply(state, move)  # as listed, other_converters and all
    several = [m for m in folded if m.get("other_converters")]
    assert several, "the position has spends with several Converter sets"
    move = rnd.choice(several)
    for unfolded_move in GAME.legal_moves(state, match={"card": move["card"],
                                                        "spend": move["spend"]}):
        GAME.apply(state, unfolded_move)


def test_Z_3_3_accepting_a_build_checks_its_own_payment_not_every_payment():
    """Z-3.3: a Build is accepted (or refused) by checking the payment it names: a tiny
    part of the work of listing every payment of every card."""
    state = BENCH.costly_position(BENCH.COSTLIEST["3 Generic, 331, 332; 11 Converters, 12 "
                                                  "spheres"])
    with tally() as listing:
        moves = GAME.legal_moves(state)
    generic = [m for m in moves if m.get("card") == 333 and len(m["converters"]) >= 3]
    some = generic[:: len(generic) // 5]
    with tally() as accepting:
        for move in some:
            GAME.apply(state, move)
    # each accepted Build takes under 1 % of the listing's work
    assert listing.nodes > 50_000 and accepting.nodes * 100 < listing.nodes * len(some)
    move = dict(generic[0], converters=generic[0]["converters"][1:])
    with tally() as refusing:
        refused(state, move, "Z-5")
    assert refusing.nodes * 100 < listing.nodes


def test_Z_3_3_one_cards_moves_are_listed_by_searching_that_cards_payments_only():
    """A client may ask for one card's moves (``match={"card": id}``: a page shows a card,
    then its ways to pay): exactly the full listing's moves of that card, in its order,
    found by searching that card's payments alone."""
    state = BENCH.costly_position(BENCH.COSTLIEST["3 Generic, 331, 332; 11 Converters, 12 "
                                                  "spheres"])
    with tally() as everything:
        moves = GAME.legal_moves(state)
    cards = sorted({m["card"] for m in moves if m["type"] == "build"})
    assert len(cards) >= 4
    for card in cards:
        with tally() as one:
            listed = GAME.legal_moves(state, match={"card": card})
        assert listed == [m for m in moves if m.get("card") == card]
        assert one.nodes < everything.nodes
    kind = next(m["type"] for m in moves if m["type"] != "build")
    with tally() as none:
        others = GAME.legal_moves(state, match={"type": kind})
    assert others and others == [m for m in moves if m["type"] == kind]
    assert none.nodes == 0, "a listing without Builds searches no payment"
    assert GAME.legal_moves(state, match={"card": 999}) == []


def test_Z_5_the_service_lists_a_spends_converter_sets_and_takes_a_build_as_listed():
    """Z-5 over HTTP (POST /v1/legal-moves, /v1/apply): a Build listed with
    ``other_converters`` is played as listed, the note ignored; ``match`` with the card
    and the spend (colours in any order) lists every set, each with its text; a note
    that is not the listing's (false) is refused, the note named (422, Z-5)."""
    from gizmos.service import create_app
    client = create_app().test_client()
    state = BENCH.costly_position(BENCH.COSTLIEST["Research of 336, 331, 332, 320; "
                                                  "13 Converters"])
    listed = client.post("/v1/legal-moves", json={"state": state, "seat": 1}).get_json()
    move = next(m for m in listed["moves"] if m.get("other_converters"))
    match = {"card": move["card"], "spend": move["spend"][::-1]}
    sets = client.post("/v1/legal-moves", json={"state": state, "seat": 1, "match": match})
    assert sets.status_code == 200
    unfolded = sets.get_json()["moves"]
    assert len(unfolded) > 1 and all(m["text"] and "other_converters" not in m
                                     for m in unfolded)
    assert {k: v for k, v in move.items() if k != "other_converters"} in unfolded
    played = client.post("/v1/apply", json={"state": state, "move": move})
    assert played.status_code == 200, played.get_json()
    assert played.get_json()["events"][0]["converters"] == move["converters"]
    wrong = client.post("/v1/apply", json={"state": state,
                                           "move": dict(move, other_converters=False)})
    assert wrong.status_code == 422 and wrong.get_json()["rule"] == "Z-5"
    assert "other_converters" in wrong.get_json()["detail"]
