"""The wire description (vectron/wire.py) is tight: what the rules cannot produce, or a
field nobody sent, fails the schemas, and their bounds are the engine's own. The shared
tests/test_wire.py checks the other half: every answer of seeded games passes them."""

import pytest
from jsonschema import Draft202012Validator

from referee import wire as referee_wire
from referee.engine import CHANCE
from referee.errors import InvalidInput, InvalidOptions
from vectron import wire
from vectron.board import CARD_COUNT, DEFAULT_ACTION_CARDS, DEFAULT_MAP_CHIPS, MAP_CHIP_COUNT
from vectron.engine import Vectron
from vectron.service import create_app

GAME = Vectron()
SCHEMAS = {"components": {"schemas": referee_wire.components(GAME)}}


def valid(name, instance) -> bool:
    schema = dict(SCHEMAS, **{"$ref": f"#/components/schemas/{name}"})
    return Draft202012Validator(schema).is_valid(instance)


def test_V_8_move_types_are_the_wire_descriptions():
    assert set(GAME.info()["move_types"]) == {"draw", "place", "move", "stop", "layout", "card"}
    assert GAME.info()["move_types"] == {t: s["description"] for t, s in wire.MOVES.items()}


LAYOUT = {"a1": "seat1", "b1": "star1", "c1": "star1", "d1": "star1", "a2": "star1",
          "b2": "star2", "c2": "star2", "d2": "seat2", "a3": "star3", "b3": "star3",
          "c3": "star3", "d3": "star3", "a4": "gate", "b4": "gate", "c4": "swap", "d4": "swap"}
MOVES_ACCEPTED = [
    {"type": "draw", "seat": 1, "source": "deck"},
    {"type": "draw", "seat": 4, "source": 4, "text": "Seat 4: …"},
    {"type": "place", "seat": 2, "card": "S"},
    {"type": "move", "seat": 3, "to": "d4"},
    {"type": "stop", "seat": 1},
    {"type": "layout", "seat": CHANCE, "cells": LAYOUT},
    {"type": "card", "seat": CHANCE, "card": "D3", "p": 0.125},
    {"type": "card", "seat": CHANCE},  # as logged: the card is never shown
]
MOVES_REFUSED = {
    "seat 5": {"type": "stop", "seat": 5},
    "chance draws": {"type": "draw", "seat": CHANCE, "source": "deck"},
    "a seat deals": {"type": "card", "seat": 1, "card": "O1"},
    "source 0": {"type": "draw", "seat": 1, "source": 0},
    "source a pile": {"type": "draw", "seat": 1, "source": "discard"},
    "a card that is not one": {"type": "place", "seat": 1, "card": "O4"},
    "a cell off the map": {"type": "move", "seat": 1, "to": "e5"},
    "the card named in a move": {"type": "move", "seat": 1, "to": "a1", "card": "O1"},
    "a layout short of a cell": {"type": "layout", "seat": CHANCE,
                                 "cells": {c: v for c, v in LAYOUT.items() if c != "d4"}},
    "a layout with a seat 5": {"type": "layout", "seat": CHANCE,
                               "cells": dict(LAYOUT, d4="seat5")},
    "an extra field": {"type": "stop", "seat": 1, "why": "tired"},
}


@pytest.mark.parametrize("move", MOVES_ACCEPTED, ids=lambda m: m["type"])
def test_V_8_every_shape_of_move_is_described(move):
    assert valid("VectronMove", move)


@pytest.mark.parametrize("case", sorted(MOVES_REFUSED))
def test_V_8_moves_the_rules_cannot_spell_fail_the_schema(case):
    assert not valid("VectronMove", MOVES_REFUSED[case])


def test_V_7_2_the_view_schema_describes_every_key_and_admits_no_other(table):
    state = table.moving(3, {"b2": "seat1"}, column=["O1", "D2"])
    view = GAME.view(state, 2)
    assert valid("VectronView", view)
    assert set(wire.VIEW["properties"]) == set(view) - set(referee_wire.VIEW_KEYS)
    for leak in ({"rng": {"state": "0" * 16, "inc": "1" * 16}}, {"secret": 1},
                 {"deck": state["deck"]}, {"deck": {"count": 17, "cards": state["deck"]}},
                 {"hands": [{"count": 2, "cards": ["O1", "O2"]}, *view["hands"][1:]]}):
        assert not valid("VectronView", dict(view, **leak)), leak
    assert not valid("VectronView", dict(view, grid=dict(view["grid"], e5="gate")))
    assert not valid("VectronView", dict(view, gauges=[10, 0, 0]))


def test_V_6_4_score_bounds_are_the_rules_bounds():
    """A score reaches 14 at most: 5 before a 2-player settlement of gauges 9 and 0."""
    board = GAME.calculate({"gauges": [9, 0], "scores": [5, 0]})
    assert board["scores"][0]["total"] == 14 and valid("VectronScore", board)
    board["scores"][0]["total"] = 15
    board["scores"][0]["breakdown"]["gain"] = 10
    assert not valid("VectronScore", board)


@pytest.mark.parametrize("option, total, filler", [("map_chips", MAP_CHIP_COUNT, "star1"),
                                                   ("action_cards", CARD_COUNT, "O1")])
def test_V_1_3_and_V_1_4_option_schemas_are_the_engines_bounds(option, total, filler):
    """Each count at its schema's bound (the others at their least, one kind taking the
    rest) is a mix the engine takes, or refuses only because the game could not end
    with it (a combination, V-1.4); one past the bound fails the schema and the engine."""
    schema = wire.OPTIONS[option]["properties"]
    least = {kind: bound["minimum"] for kind, bound in schema.items()}
    for kind, bound in schema.items():
        top = dict(least, **{kind: bound["maximum"]})
        rest = "star3" if kind == filler == "star1" else filler
        top[rest] += total - sum(top.values())
        assert valid("VectronOptions", {option: top}), top
        try:
            GAME.new(2, seed=1, options={option: top})
        except InvalidOptions as refused:
            assert refused.rule == "V-1.4" and "no gauge can ever rise" in refused.detail
        for beyond in (bound["minimum"] - 1, bound["maximum"] + 1):
            wrong = dict(top, **{kind: beyond})
            assert not valid("VectronOptions", {option: wrong})
            with pytest.raises(InvalidOptions) as refused:
                GAME.new(2, seed=1, options={option: wrong})
            assert option in refused.value.detail


def test_V_5_6_just3_bonus_schema_is_false_only():
    assert valid("VectronOptions", {"just3_bonus": False})
    assert not valid("VectronOptions", {"just3_bonus": True})
    defaults = {"map_chips": DEFAULT_MAP_CHIPS, "action_cards": DEFAULT_ACTION_CARDS,
                "just3_bonus": False}
    assert valid("VectronOptions", defaults) and not valid("VectronOptions",
                                                           dict(defaults, bonus=1))


@pytest.mark.parametrize("gauges, ok", [([9, 0], True), ([10, 0], False), ([0], False),
                                        ([0, 0, 0, 0], True), ([0] * 5, False)])
def test_V_4_6_the_score_helper_schema_takes_what_the_engine_takes(gauges, ok):
    body = {"gauges": gauges}
    assert valid("VectronCalculateRequest", body) is ok
    if ok:
        GAME.calculate(body)
    else:
        with pytest.raises(InvalidInput):
            GAME.calculate(body)


def test_V_6_2_the_service_serves_and_checks_the_score_helper_schema():
    client = create_app({"TESTING": True}).test_client()
    example = wire.CALCULATE["examples"][0]
    answer = client.post("/v1/calculate", json=example)
    assert answer.status_code == 200 and answer.get_json() == GAME.calculate(example)
    spec = client.get("/openapi.json").get_json()
    served = spec["components"]["schemas"]["VectronCalculateRequest"]
    assert served["properties"] == wire.CALCULATE["properties"]
    options = spec["components"]["schemas"]["VectronOptions"]["properties"]
    assert options["map_chips"]["properties"]["swap"] == {"type": "integer", "minimum": 2,
                                                          "maximum": 2}
