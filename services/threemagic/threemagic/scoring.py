"""The score: magic measurement (魔力測定, T-7.2–T-7.4), the payment of a win,
each seat's od (T-9.2) and the score helper (``/v1/calculate``).

Measurement is a pure function of the three spells; play and the score helper
both use it. ``tables`` are the scoring options (``attribute_points``,
``number_points``, ``star_points``) with the defaults of RULES.md.

The score helper's input (see RULES.md, "Score helper")::

    {"win": "tsumo" | "ron", "winner_attribute": "fire", "discarder_attribute": null,
     "spells": [[hand spells in order, winning card included]], "called": [[called spells]],
     "winning_card": "R3*", "indicators": ["G1", …], "riichi": false,
     "field": 0, "pool": 0, "attributes": ["fire", "water", "wood"], "options": {…}}
"""

from itertools import combinations

from referee.errors import InvalidInput

from .cards import (
    ATTRIBUTES, COPIES, LETTER, MAX_CALLS, WEAK_TO, call_cost, counts, face, is_card, is_spell,
    number, starred,
)
from .table import SEATS, seat_attribute

CATALYST_POINTS = 10  # T-7.2: per catalyst card per indicator pointing at it
THRESHOLD = 10  # T-7.2: catalysts count only from this base on


def catalyst_of(indicator: str) -> str:
    """The face an indicator points at: same attribute, next number (4 → 0)."""
    return f"{indicator[0]}{(number(indicator) + 1) % 5}"


def _table(points: list[int], count: int) -> int:
    return points[count - 1] if count else 0


def attribute_item(spells, counted: str, tables) -> dict:
    count = sum(spell[0][0] == LETTER[counted] for spell in spells)
    return {"attribute": counted, "spells": count,
            "points": _table(tables["attribute_points"], count)}


def _numbers_kind(group) -> str:
    """same (``444``), sequence (one direction: ``123 123``) or mixed (``123 321``)."""
    readings = {tuple(number(c) for c in spell) for spell in group}
    if len(set(number(c) for c in group[0])) == 1:
        return "same"
    return "sequence" if len(readings) == 1 else "mixed"


def numbers_item(spells, tables) -> dict:
    """The best group of 2 or 3 spells with the same numbers (only the best applies)."""
    best = {"kind": None, "spells": 0, "points": 0}
    for size in (2, 3):
        for group in combinations(spells, size):
            if len({tuple(sorted(number(c) for c in spell)) for spell in group}) != 1:
                continue
            kind = _numbers_kind(group)
            points = tables["number_points"][kind][size - 2]
            if points > best["points"]:
                best = {"kind": kind, "spells": size, "points": points}
    return best


def stars_item(spells, tables) -> dict:
    count = sum(all(starred(c) for c in spell) for spell in spells)
    return {"spells": count, "points": _table(tables["star_points"], count)}


def catalyst_item(spells, indicators: list[str], base: int) -> dict:
    """T-7.2: 10 per catalyst card per indicator, only when the base reaches 10."""
    faces = [face(c) for spell in spells for c in spell]
    items = []
    for indicator in indicators:
        catalyst = catalyst_of(indicator)
        cards = faces.count(catalyst) if base >= THRESHOLD else 0
        items.append({"indicator": indicator, "catalyst": catalyst, "cards": cards,
                      "points": CATALYST_POINTS * cards})
    return {"counted": base >= THRESHOLD, "indicators": items,
            "points": sum(item["points"] for item in items)}


def measure(spells: list[list[str]], counted: str, indicators: list[str], tables) -> dict:
    """The full breakdown of a winning hand; ``counted`` is the attribute whose
    spells score (T-7.2), ``indicators`` those the winner may use."""
    attribute = attribute_item(spells, counted, tables)
    numbers = numbers_item(spells, tables)
    stars = stars_item(spells, tables)
    base = attribute["points"] + numbers["points"] + stars["points"]
    catalyst = catalyst_item(spells, indicators, base)
    return {"spells": [list(s) for s in spells], "attribute": attribute, "numbers": numbers,
            "stars": stars, "base": base, "catalyst": catalyst,
            "total": base + catalyst["points"], "special_draw": base == 0}


def tsumo_share(total: int) -> int:
    """T-7.1: half of the total, rounded up to a multiple of 5."""
    return -(-total // 10) * 5


def settle(total: int, win: str, winner: int, discarder: int | None, seats,
           riichi: bool, called: bool, field: int, pool: int) -> dict:
    """Who pays what (T-7.1) and where the field and the pool go (T-7.4).

    Returns ``{"payments": [{seat, pays}], "receives", "field_taken",
    "pool_taken", "field_to_pool", "pool_after", "changes": [{seat, change}]}``.
    """
    if win == "ron":
        payments = [{"seat": discarder, "pays": total}]
    else:
        payments = [{"seat": s, "pays": tsumo_share(total)} for s in seats if s != winner]
    receives = sum(p["pays"] for p in payments)
    pool_taken = 0 if called else pool  # the pool as it stood before this match
    field_taken = field if riichi else 0
    changes = {s: 0 for s in seats}
    for payment in payments:
        changes[payment["seat"]] -= payment["pays"]
    changes[winner] += receives + pool_taken + field_taken
    changes = [{"seat": s, "change": delta} for s, delta in changes.items()]
    return {"payments": payments, "receives": receives, "field_taken": field_taken,
            "pool_taken": pool_taken, "field_to_pool": field - field_taken,
            "pool_after": pool - pool_taken + field - field_taken, "changes": changes}


# ------------------------------------------------------------ the score
def score(state) -> list[dict]:
    """T-9.2: each seat's od, with what makes it up (running until the game ends)."""
    start = state["options"]["starting_od"]
    return [{"seat": seat, "total": od, "breakdown": {
        "od": od, "starting_od": start, "change": od - start,
        "attribute": seat_attribute(state, seat), "manager": seat == state["manager"],
        "riichi": state["riichi"][seat - 1], "calls": len(state["called"][seat - 1])}}
        for seat, od in enumerate(state["od"], start=1)]


# ------------------------------------------------------- the score helper
def _spells(value, name, rule="T-2.1"):
    if not isinstance(value, list) or not all(
            isinstance(s, list) and all(is_card(c) for c in s)
            for s in value):
        raise InvalidInput(f"{name} must list spells of cards (R0…G4*)", rule="T-1.2")
    for spell in value:
        if not is_spell(spell):
            raise InvalidInput(f"{name}: {' '.join(spell)} is not a spell (the 13 patterns)",
                               rule=rule)
    return [list(s) for s in value]


def _read(engine, data):
    """The checked input: what a table can have seen at a win."""
    if not isinstance(data, dict):
        raise InvalidInput("the body must be an object")
    options = engine.resolve_options(data.get("options") or {}, 3)
    attributes = data.get("attributes") or options["attributes"]
    if not isinstance(attributes, list) or sorted(map(str, attributes)) != sorted(ATTRIBUTES):
        raise InvalidInput("attributes must list fire, water and wood once each", rule="T-1.1")
    win, winner = data.get("win"), data.get("winner_attribute")
    discarder = data.get("discarder_attribute")
    if win not in ("ron", "tsumo"):
        raise InvalidInput("win must be ron or tsumo", rule="T-7.1")
    if winner not in ATTRIBUTES:
        raise InvalidInput("winner_attribute must be fire, water or wood", rule="T-1.1")
    if win == "ron" and (discarder not in ATTRIBUTES or discarder == winner):
        raise InvalidInput("a ron names the discarder's attribute, not the winner's", rule="T-7.1")
    if win == "tsumo" and discarder is not None:
        raise InvalidInput("a tsumo has no discarder", rule="T-7.1")
    hand = _spells(data.get("spells"), "spells", rule="T-2.2")
    called = _spells(data.get("called") or [], "called", rule="T-5.3")
    if len(called) > MAX_CALLS or len(hand) + len(called) != 3:
        raise InvalidInput("a winning hand is 3 spells, at most 2 of them called", rule="T-2.2")
    riichi = data.get("riichi", False)
    if type(riichi) is not bool or (riichi and called):
        raise InvalidInput("riichi is true or false, and a seat that called cannot riichi",
                           rule="T-6.1")
    card = data.get("winning_card")
    if card not in [c for spell in hand for c in spell]:
        raise InvalidInput("the winning card completes the hand: it is in one of its spells",
                           rule="T-4.2")
    indicators = data.get("indicators")
    if not isinstance(indicators, list) or not 1 <= len(indicators) <= options["unused_cards"] \
            or not all(is_card(c) for c in indicators):
        raise InvalidInput(f"indicators must list 1 to {options['unused_cards']} cards, the 1st "
                           "turned at setup", rule="T-3.3")
    everything = [c for s in hand + called for c in s] + indicators
    for kind, n in counts(everything).items():
        if n > COPIES[kind]:
            raise InvalidInput(f"{n} copies of {kind}: the deck has {COPIES[kind]}", rule="T-1.2")
    field, pool = data.get("field", 0), data.get("pool", 0)
    if not all(type(v) is int and v >= 0 for v in (field, pool)):
        raise InvalidInput("field and pool must be non-negative integers", rule="T-7.4")
    _check_stakes(options, LETTER[winner], called, riichi, indicators, field, pool)
    return dict(options=options, attributes=attributes, win=win, winner=winner,
                discarder=discarder, hand=hand, called=called, riichi=riichi,
                indicators=indicators, field=field, pool=pool)


def _check_stakes(options, letter, called, riichi, indicators, field, pool):
    """What the field and the pool can hold at a win (see RULES.md, score helper).

    Every indicator after the 1st was turned by a riichi (T-6.2), one per seat
    at most; the field holds this match's riichi stakes (10 each) and call
    costs (T-5.4: the winner's are known from its called spells, in order; each
    other seat that did not riichi paid 0, or 10/30 for one call, or 10/30 then
    30/90 for two); the pool only ever receives field od and managers' 10s; no
    seat is below 0 od while a match is played, so field and pool together
    hold at most what the three seats started with (T-1.3).
    """
    riichis = len(indicators) - 1
    if riichi and riichis < 1:
        raise InvalidInput("a riichi turns a new indicator: a riichi winner's indicators list "
                           "at least 2 cards", rule="T-6.2")
    others_riichi = riichis - riichi
    if others_riichi > 2:
        raise InvalidInput(f"each indicator after the 1st was turned by a riichi, one per seat: "
                           f"{len(indicators)} indicators need {riichis} riichis, but only "
                           f"{2 + riichi} seats could have declared one", rule="T-6.2")
    if field < 10 * riichis:
        raise InvalidInput(f"{riichis} riichi stake(s) (one per indicator after the 1st) put "
                           f"{10 * riichis} od on the field, more than its {field}", rule="T-6.2")
    own_costs = sum(call_cost(k, spell[0][0] == letter) for k, spell in enumerate(called))
    rest = field - 10 * riichis - own_costs
    if rest < 0:
        raise InvalidInput(f"the winner's calls cost {own_costs} od and the riichi stakes "
                           f"{10 * riichis}: the field cannot hold only {field}", rule="T-5.4")
    if rest not in _other_costs(2 - others_riichi):
        raise InvalidInput(f"a field of {field} is not 10 per riichi plus call costs (10 or 30 "
                           f"for a seat's 1st call, 30 or 90 for its 2nd)", rule="T-5.4")
    if pool % 10:
        raise InvalidInput("the pool only receives field od and managers' 10s: a multiple of 10",
                           rule="T-7.4")
    if field + pool > 3 * options["starting_od"]:
        raise InvalidInput(f"field and pool cannot hold more than the {3 * options['starting_od']} "
                           "od the three seats started with", rule="T-1.3")


#: what one seat's calls of a match can have put on the field (T-5.4)
SEAT_CALL_COSTS = {0} | {call_cost(0, own) for own in (True, False)} | {
    call_cost(0, first) + call_cost(1, second) for first in (True, False)
    for second in (True, False)}


def _other_costs(seats: int) -> set[int]:
    """Every total that ``seats`` other seats' calls can have put on the field."""
    totals = {0}
    for _ in range(seats):
        totals = {t + c for t in totals for c in SEAT_CALL_COSTS}
    return totals


def calculate(engine, data) -> tuple[list[dict], dict]:
    """``(scores, payment)``: each seat's od change, and the full payment."""
    given = _read(engine, data)
    seat_of = {attribute: seat for seat, attribute in enumerate(given["attributes"], start=1)}
    winner = seat_of[given["winner"]]
    discarder = seat_of.get(given["discarder"])
    counted = given["winner"] if given["win"] == "tsumo" else WEAK_TO[given["discarder"]]
    indicators = given["indicators"] if given["riichi"] else given["indicators"][:1]
    measured = measure(given["hand"] + given["called"], counted, indicators, given["options"])
    payment = {"win": given["win"], "winner": winner, "discarder": discarder, "score": measured,
               "special_draw": measured["special_draw"], "settlement": None}
    changes = {seat: 0 for seat in SEATS}
    if measured["special_draw"]:  # T-7.3: no payment; the field goes to the pool
        payment["field_to_pool"] = given["field"]
    else:
        settlement = settle(measured["total"], given["win"], winner, discarder, SEATS,
                            given["riichi"], bool(given["called"]), given["field"],
                            given["pool"])
        payment["settlement"] = settlement
        changes = {c["seat"]: c["change"] for c in settlement["changes"]}
    scores = []
    for seat in SEATS:
        role = "winner" if seat == winner else "discarder" if seat == discarder else (
            "payer" if given["win"] == "tsumo" else "bystander")
        scores.append({"seat": seat, "total": changes[seat], "breakdown": {
            "attribute": given["attributes"][seat - 1], "role": role,
            "change": changes[seat]}})
    return scores, payment
