"""The score helper (``/v1/calculate``): a table reads off a winning hand and
gets the payment with every item of its breakdown and who pays what.

Input (see RULES.md, "Score helper")::

    {"win": "tsumo" | "ron", "winner_attribute": "fire", "discarder_attribute": null,
     "spells": [[hand spells in order, winning card included]], "called": [[called spells]],
     "winning_card": "R3*", "indicators": ["G1", …], "riichi": false,
     "field": 0, "pool": 0, "attributes": ["fire", "water", "wood"], "options": {…}}
"""

from referee.errors import InvalidInput

from .cards import ATTRIBUTES, COPIES, MAX_CALLS, WEAK_TO, counts, is_card, is_spell
from .scoring import measure, settle

SEATS = (1, 2, 3)


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
    return dict(options=options, attributes=attributes, win=win, winner=winner,
                discarder=discarder, hand=hand, called=called, riichi=riichi,
                indicators=indicators, field=field, pool=pool)


def calculate(engine, data) -> tuple[list[dict], dict]:
    """``(scores, payment)``: each seat's od change, and the full payment."""
    given = _read(engine, data)
    seat_of = {attribute: seat for seat, attribute in enumerate(given["attributes"], start=1)}
    winner = seat_of[given["winner"]]
    discarder = seat_of.get(given["discarder"])
    counted = given["winner"] if given["win"] == "tsumo" else WEAK_TO[given["discarder"]]
    indicators = given["indicators"] if given["riichi"] else given["indicators"][:1]
    score = measure(given["hand"] + given["called"], counted, indicators, given["options"])
    payment = {"win": given["win"], "winner": winner, "discarder": discarder, "score": score,
               "special_draw": score["special_draw"], "settlement": None}
    changes = {seat: 0 for seat in SEATS}
    if score["special_draw"]:  # T-7.3: no payment; the field goes to the pool
        payment["field_to_pool"] = given["field"]
    else:
        settlement = settle(score["total"], given["win"], winner, discarder, SEATS,
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
