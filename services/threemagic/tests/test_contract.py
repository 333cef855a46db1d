"""The wire description (threemagic/wire.py) is tight and agrees with the engine: what
the rules cannot spell, or a field nobody sent, fails the schemas; option values and
score-helper input the schemas allow are the ones the engine takes; the catalog
(threemagic/components.py) is the engine's own data. The shared tests/test_wire.py
checks the other half: every answer of seeded games passes the schemas."""

import pytest
from jsonschema import Draft202012Validator

from referee import conformance
from referee import wire as referee_wire
from referee.errors import InvalidInput, InvalidOptions, InvalidState
from threemagic import wire
from threemagic.cards import COPIES, DECK_SIZE, is_spell
from threemagic.scoring import catalyst_of
from threemagic.service import create_app
from threemagic_helpers import ENGINE, EXAMPLE, RON_2, RON_3, answer, draw, drop_drawn, \
    new_match, play

SCHEMAS = {"components": {"schemas": referee_wire.components(ENGINE)}}


def valid(name, instance) -> bool:
    schema = dict(SCHEMAS, **{"$ref": f"#/components/schemas/{name}"})
    return Draft202012Validator(schema).is_valid(instance)


def test_T_4_move_types_are_the_wire_descriptions():
    types = ENGINE.info()["move_types"]
    assert types == {kind: schema["description"] for kind, schema in wire.MOVES.items()}
    assert set(types) == {"deal", "indicator", "draw", "tsumo", "discard", "ron", "pon", "chi",
                          "pass", "answer"}


MOVES_ACCEPTED = [
    {"type": "deal", "seat": "chance", "to": 3, "card": "R0", "p": 0.07},
    {"type": "deal", "seat": "chance", "to": 1, "card": "hidden"},
    {"type": "indicator", "seat": "chance", "card": "G4*"},
    {"type": "draw", "seat": "chance", "to": 2, "card": "hidden", "text": "…"},
    {"type": "tsumo", "seat": 1, "insert": 8},
    {"type": "discard", "seat": 2, "insert": 0, "remove": 0, "riichi": True},
    {"type": "discard", "seat": 3, "insert": None, "remove": 5, "riichi": False},
    {"type": "ron", "seat": 2, "insert": 0},
    {"type": "pon", "seat": 3, "cards": [0, 7]},
    {"type": "chi", "seat": 2, "cards": [3, 4]},
    {"type": "pass", "seat": 1},
    {"type": "answer", "seat": 3},
]
MOVES_REFUSED = {
    "seat 4": {"type": "pass", "seat": 4},
    "chance declares tsumo": {"type": "tsumo", "seat": "chance", "insert": 0},
    "a seat deals": {"type": "deal", "seat": 1, "to": 2, "card": "R0"},
    "no such card": {"type": "draw", "seat": "chance", "to": 2, "card": "R5"},
    "a hidden indicator": {"type": "indicator", "seat": "chance", "card": "hidden"},
    "a deal to nobody": {"type": "deal", "seat": "chance", "card": "R0"},
    "insert past a 9-card hand": {"type": "tsumo", "seat": 1, "insert": 9},
    "riichi left out": {"type": "discard", "seat": 1, "insert": 0, "remove": 0},
    "riichi as a word": {"type": "discard", "seat": 1, "insert": 0, "remove": 0,
                         "riichi": "yes"},
    "one card twice": {"type": "pon", "seat": 1, "cards": [3, 3]},
    "one card": {"type": "chi", "seat": 1, "cards": [3]},
    "a 9th hand card": {"type": "pon", "seat": 1, "cards": [0, 8]},
    "an extra field": {"type": "pass", "seat": 1, "why": "tired"},
    "an answer that says what": {"type": "answer", "seat": 2, "insert": 3},
}


@pytest.mark.parametrize("move", MOVES_ACCEPTED, ids=lambda m: m["type"])
def test_T_4_every_shape_of_move_is_described(move):
    assert valid("ThreemagicMove", move)


@pytest.mark.parametrize("case", sorted(MOVES_REFUSED))
def test_T_4_moves_the_rules_cannot_spell_fail_the_schema(case):
    assert not valid("ThreemagicMove", MOVES_REFUSED[case])


def window_state():
    """Seat 1 discarded into a window asking seats 2 and 3; seat 2 has answered ron."""
    state = play(draw(new_match({1: EXAMPLE, 2: RON_2, 3: RON_3}), "G2"), drop_drawn(1))
    return play(state, answer(2, "ron", insert=7))


def test_T_10_2_the_view_schema_describes_every_key_and_admits_no_other():
    state = window_state()
    for seat in (None, 1, 2, 3):
        view = ENGINE.view(state, seat)
        assert valid("ThreemagicView", view)
        assert set(wire.VIEW["properties"]) == set(view) - set(referee_wire.VIEW_KEYS)
    view = ENGINE.view(state, 3)
    assert view["window"]["answers"] == [{"seat": 2}]
    for leak in ({"rng": state["rng"]}, {"deck": []},
                 {"window": dict(view["window"], answers=[{"seat": 2, "type": "ron"}])},
                 {"hands": [{"count": 8, "cards": []}, *view["hands"][1:]]},
                 {"drawn": "R5"}, {"pool": 15}):
        assert not valid("ThreemagicView", dict(view, **leak))


def test_T_7_2_the_score_breakdown_schema_takes_both_kinds_of_score_line():
    game = conformance.play_random_game(ENGINE, 3, 4, deep=False)
    assert valid("ThreemagicScore", game.score)
    assert valid("ThreemagicScore", ENGINE.calculate(wire.CALCULATE["examples"][0]))
    line = game.score["scores"][0]
    assert not valid("ThreemagicScore", dict(game.score, scores=[
        dict(line, breakdown=dict(line["breakdown"], role="winner"))]))


# --------------------------------------------------------------- options
OPTIONS_ACCEPTED = [
    {"attributes": ["wood", "water", "fire"]}, {"starting_od": 0}, {"starting_od": 100_000},
    {"unused_cards": 1}, {"unused_cards": 30}, {"rotations": 20},
    {"attribute_points": [0, 0, 100_000]},
    {"number_points": {"same": [0, 0], "sequence": [1, 2], "mixed": [100_000, 0]}},
]
OPTIONS_REFUSED = [  # the schema forbids them and the engine refuses them (test_options.py)
    {"unused_cards": 0}, {"unused_cards": 31}, {"rotations": 0}, {"rotations": 21},
    {"starting_od": -10}, {"starting_od": 100_001}, {"starting_od": "270"},
    {"attributes": ["water", "water", "wood"]}, {"attributes": ["fire", "water"]},
    {"attributes": ["fire", "water", "earth"]}, {"attribute_points": [10, 30, -90]},
    {"star_points": [10, 30]}, {"number_points": {"same": [60, 180]}},
    {"number_points": {"same": [1, 2], "sequence": [1, 2], "mixed": [1, 2], "x": [1, 2]}},
]


@pytest.mark.parametrize("options", OPTIONS_ACCEPTED + OPTIONS_REFUSED, ids=str)
def test_T_3_3_T_9_1_the_option_schemas_allow_what_the_engine_sets_up(options):
    """Every option value the schemas allow sets up; every one they forbid is refused."""
    allowed = valid("ThreemagicOptions", options)
    assert allowed == (options in OPTIONS_ACCEPTED)
    if allowed:
        assert ENGINE.new(3, seed=1, options=options)["options"] == dict(
            ENGINE.resolve_options(None, 3), **options)
    else:
        with pytest.raises(InvalidOptions):
            ENGINE.new(3, seed=1, options=options)


# ---------------------------------------------------------- score helper
def payment_valid(payment) -> bool:
    return Draft202012Validator(wire.PAYMENT).is_valid(payment)


def test_T_7_2_the_score_helper_example_is_a_realistic_riichi_tsumo():
    """The example scores the catalysts of both indicators: G2* for G1, three B3s for B2."""
    example = wire.CALCULATE["examples"][0]
    board = ENGINE.calculate(example)
    score = board["payment"]["score"]
    assert (score["base"], score["catalyst"]["points"], score["total"]) == (20, 40, 60)
    assert [s["total"] for s in board["scores"]] == [60 + 30 + 40, -30, -30]
    assert payment_valid(board["payment"])


SPELLS = [["R1*", "R2*", "R3*"], ["B3", "B3*", "B3*"], ["G0", "G1*", "G2*"]]
BASE = {"win": "tsumo", "winner_attribute": "fire", "spells": SPELLS, "winning_card": "R3*",
        "indicators": ["G1"]}
TWO_CALLS = dict(BASE, spells=SPELLS[:1], called=[SPELLS[2], SPELLS[1]])  # 30 + 90


@pytest.mark.parametrize("body", [
    dict(TWO_CALLS, field=360),  # every seat called twice at 30 + 90: the fullest field
    dict(BASE, pool=300_000, options={"starting_od": 100_000}),
    dict(BASE, win="ron", winner_attribute="water", discarder_attribute="fire",
         spells=[["R0", "R1", "R2"], ["G2", "G3", "G4"], ["R3", "R4", "R0"]],
         winning_card="R0"),  # a special draw
], ids=["fullest field", "fullest pool", "special draw"])
def test_T_7_4_the_score_helper_schema_reaches_the_rules_extremes(body):
    assert valid("ThreemagicCalculateRequest", body)
    assert payment_valid(ENGINE.calculate(body)["payment"])


@pytest.mark.parametrize("body, rule", [
    (dict(TWO_CALLS, field=370), "T-5.4"),
    (dict(BASE, pool=300_010, options={"starting_od": 100_000}), "T-1.3"),
    (dict(BASE, indicators=["G1", "B0", "B0", "R0", "R1"], riichi=True, field=40), "T-6.2"),
    (dict(BASE, pool=15), "T-7.4"),
])
def test_T_6_2_what_the_schema_forbids_the_engine_refuses_too(body, rule):
    assert not valid("ThreemagicCalculateRequest", body)
    with pytest.raises(InvalidInput) as refused:
        ENGINE.calculate(body)
    assert refused.value.rule == rule


def test_T_7_1_the_service_checks_the_score_helper_body_against_its_schema():
    client = create_app({"TESTING": True}).test_client()
    answer_ = client.post("/v1/calculate", json=dict(BASE, win="draw", field=5, seat=2,
                                                     spells=[["R1*", "R2*"]]))
    body = answer_.get_json()
    assert answer_.status_code == 400 and body["code"] == "bad_request"
    assert {"win", "field", "spells.0"} <= set(body["errors"])
    example = wire.CALCULATE["examples"][0]
    answer_ = client.post("/v1/calculate", json=example)
    assert answer_.status_code == 200 and answer_.get_json() == ENGINE.calculate(example)
    spec = client.get("/openapi.json").get_json()
    assert spec["components"]["schemas"]["ThreemagicCalculateRequest"]["properties"] == \
        wire.CALCULATE["properties"]


# -------------------------------------------------------------- catalog
def test_T_1_2_the_catalog_holds_the_deck_the_engine_plays():
    catalog = ENGINE.components()
    assert valid("ThreemagicComponents", catalog)
    cards = catalog["cards"]
    assert [c["id"] for c in cards] == list(COPIES)
    assert sum(c["copies"] for c in cards) == DECK_SIZE == catalog["deck"]["size"] == 60
    for card in cards:
        assert card["catalyst"] == catalyst_of(card["id"])
        assert card["name"]["en"] and card["name"]["ja"] != card["name"]["en"]
    assert ENGINE.components() == catalog and ENGINE.components() is not catalog


def test_T_2_1_the_catalog_lists_the_13_spell_patterns():
    patterns = ENGINE.components()["spell"]["patterns"]
    assert len(patterns) == 13
    for pattern in patterns:
        assert is_spell([f"G{n}" for n in pattern["numbers"]])
    assert {"".join(map(str, p["numbers"])) for p in patterns if p["kind"] == "descending"} \
        == {"043", "432", "321", "210"}


def test_T_5_4_the_catalog_states_the_call_costs():
    assert ENGINE.components()["calls"]["costs"] == [
        {"call": 1, "own_attribute": 10, "other_attribute": 30},
        {"call": 2, "own_attribute": 30, "other_attribute": 90}]


# ------------------------------------------------- the pool's bound (T-9.1)
def test_T_9_1_a_pool_beyond_the_od_in_play_and_a_last_stake_is_refused():
    """The pool only ever holds od the seats started with, plus the 10 a bust manager's
    stake can add; a forged finished game holding more is refused."""
    final = conformance.play_random_game(ENGINE, 3, 3, deep=False).final
    start = 3 * final["options"]["starting_od"] - final["field"]
    for pool, accepted in ((start + 10, True), (start + 20, False)):
        od = [final["od"][0] + final["pool"] - pool, *final["od"][1:]]
        forged = dict(final, pool=pool, od=od)
        if accepted:
            ENGINE.check_state(forged)
        else:
            with pytest.raises(InvalidState):
                ENGINE.check_state(forged)
