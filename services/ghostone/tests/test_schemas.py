"""The wire description (ghostone/wire.py) is tight: what the rules cannot produce, or a
field nobody sent, fails the schemas; its bounds are the engine's own. The shared
tests/test_wire.py checks the other half: every answer of seeded games passes them."""

import pytest
from jsonschema import Draft202012Validator

from ghostone import wire
from ghostone.board import escape_points_range
from ghostone.engine import Ghostone
from ghostone.service import create_app
from referee import wire as referee_wire
from referee.errors import InvalidInput, InvalidPlayers

GAME = Ghostone()
SCHEMAS = {"components": {"schemas": referee_wire.components(GAME)}}


def valid(name, instance) -> bool:
    schema = dict(SCHEMAS, **{"$ref": f"#/components/schemas/{name}"})
    return Draft202012Validator(schema).is_valid(instance)


def test_G_9_move_types_are_the_wire_descriptions():
    assert set(GAME.info()["move_types"]) == {"place", "move", "pass", "roll"}
    assert GAME.info()["move_types"] == {t: s["description"] for t, s in wire.MOVES.items()}


MOVES_ACCEPTED = [
    {"type": "place", "seat": 1, "plate": "b2", "rocks": ["c3", "a1", "a3"]},
    {"type": "move", "seat": 4, "from": "b2", "to": "b3", "rock": None},
    {"type": "move", "seat": 2, "from": "b2", "to": "b1", "rock": "N", "ghost": "c3"},
    {"type": "pass", "seat": 3, "text": "Seat 3: pass (no piece can move)"},
    {"type": "roll", "seat": "chance", "dir": "NW", "p": 0.125},
]
MOVES_REFUSED = {
    "seat 5": {"type": "pass", "seat": 5},
    "a seat rolls": {"type": "roll", "seat": 1, "dir": "N"},
    "chance passes": {"type": "pass", "seat": "chance"},
    "a plate off the board": {"type": "place", "seat": 1, "plate": "e5",
                              "rocks": ["a1", "a2", "b1"]},
    "two rocks": {"type": "place", "seat": 1, "plate": "a1", "rocks": ["a2", "b1"]},
    "one rock twice": {"type": "place", "seat": 1, "plate": "b2",
                       "rocks": ["a1", "a1", "a3"]},
    "a diagonal rock": {"type": "move", "seat": 1, "from": "b2", "to": "b3", "rock": "NE"},
    "the rock left out": {"type": "move", "seat": 1, "from": "b2", "to": "b3"},
    "a die face that is not one": {"type": "roll", "seat": "chance", "dir": "UP"},
    "an extra field": {"type": "pass", "seat": 1, "why": "tired"},
}


@pytest.mark.parametrize("move", MOVES_ACCEPTED, ids=lambda m: m["type"])
def test_G_9_every_shape_of_move_is_described(move):
    assert valid("GhostoneMove", move)


@pytest.mark.parametrize("case", sorted(MOVES_REFUSED))
def test_G_9_moves_the_rules_cannot_spell_fail_the_schema(case):
    assert not valid("GhostoneMove", MOVES_REFUSED[case])


def test_G_8_2_the_view_schema_describes_every_key_and_admits_no_other():
    state = GAME.new(4, seed=3)
    view = GAME.view(state, 2)
    assert valid("GhostoneView", view)
    assert set(wire.VIEW["properties"]) == set(view) - set(referee_wire.VIEW_KEYS)
    for leak in ({"rng": state["rng"]}, {"hand": []}):
        assert not valid("GhostoneView", dict(view, **leak))
    assert not valid("GhostoneView", dict(view, rocks=dict(view["rocks"], e5=1)))
    assert not valid("GhostoneView", dict(view, ghost="e5"))


def test_G_5_2_schema_bounds_are_the_rules_bounds():
    most = max(escape_points_range(n, k)[1] for n in (3, 4) for k in range(1, 9))
    assert wire.POINTS["maximum"] == most == 43  # G-2.4: the 3-player setup's rocks
    score = {"final": True, "scores": [
        {"seat": s, "total": 44, "breakdown": {"escapes": [
            {"plate": "a1", "points": 44, "bonus": 0}], "escape_points": 44, "bonus": 0}}
        for s in (1, 2, 3)], "ranking": [], "winners": []}
    assert not valid("GhostoneScore", score)


def test_G_1_3_the_score_helper_schema_takes_what_the_engine_takes():
    """Every players count the schema allows is one the engine scores, and the ones it
    forbids the engine refuses too (G-1.3)."""
    for players in range(0, 7):
        body = {"players": players, "escapes": []}
        if valid("GhostoneCalculateRequest", body):
            assert GAME.calculate(body)["final"]
        else:
            with pytest.raises(InvalidPlayers):
                GAME.calculate(body)


def test_G_7_1_the_score_helper_schema_allows_no_more_escapes_than_a_game_has():
    """3 players: 9 pieces, at most 8 escape (one always stays, G-7.1)."""
    record = [{"seat": 3, "points": 2}, {"seat": 3, "points": 2}] + [
        {"seat": s, "points": 2} for s in (1, 1, 1, 2, 2, 2)]
    assert valid("GhostoneCalculateRequest", {"players": 3, "escapes": record})
    assert GAME.calculate({"players": 3, "escapes": record})["final"]
    longer = {"players": 3, "escapes": [*record, {"seat": 3, "points": 2}]}
    assert not valid("GhostoneCalculateRequest", longer)
    with pytest.raises(InvalidInput) as refused:
        GAME.calculate(longer)
    assert refused.value.rule == "G-7.1"


def test_G_5_2_the_service_checks_the_score_helper_body_against_its_schema():
    client = create_app({"TESTING": True}).test_client()
    answer = client.post("/v1/calculate", json={"players": 4, "escapes": [
        {"seat": 5, "points": 44, "plate": "e5", "when": "late"}]})
    body = answer.get_json()
    assert answer.status_code == 400 and body["code"] == "bad_request"
    assert set(body["errors"]) == {"escapes.0", "escapes.0.seat", "escapes.0.points",
                                   "escapes.0.plate"}
    example = wire.CALCULATE["examples"][0]
    answer = client.post("/v1/calculate", json=example)
    assert answer.status_code == 200 and answer.get_json() == GAME.calculate(example)
    spec = client.get("/openapi.json").get_json()
    assert spec["components"]["schemas"]["GhostoneCalculateRequest"]["properties"] == \
        wire.CALCULATE["properties"]
