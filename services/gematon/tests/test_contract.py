"""The wire description (wire.py) and the component catalog: every answer of draft and
configured games matches its schema, a leaked or malformed field fails it, the option
schemas and the engine agree, the catalog is the engine's own data."""

import random

import pytest
from jsonschema import Draft202012Validator

from gematon import wire
from gematon.board import (
    FANO_LINES, GAUGE_VALUES, MAX_BLESSING, MAX_POSITION, VALUES, WITCHES, operation,
)
from gematon.scoring import PATTERNS
from gematon.service import create_app
from referee import wire as referee_wire
from referee.engine import CHANCE
from referee.errors import InvalidOptions, InvalidState

LINES = [[0, 1, 2], [3, 4, 5], [0, 3, 6], [1, 4, 6], [2, 5, 6], [0, 4, 5], [1, 2, 3]]


@pytest.fixture
def validate(engine):
    document = {"components": {"schemas": referee_wire.components(engine)}}

    def check(name, instance):
        schema = dict(document, **{"$ref": f"#/components/schemas/Gematon{name}"})
        return sorted(e.message for e in Draft202012Validator(schema).iter_errors(instance))
    return check


@pytest.mark.parametrize("mode", ["digital", "tabletop"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_GM_2_1_draft_games_answer_as_the_wire_describes(engine, validate, players, mode):
    """GM-2.1, GM-3.8: the draft's moves, odd lines and gauge values, every seat's view."""
    rnd = random.Random(players)
    options = {"draft": True, "pentacle_lines": LINES,
               "blessing_values": [0, 2, 2, 5, 9, 40, MAX_BLESSING]}
    state = engine.new(players, seed=players, mode=mode, options=options)
    played = set()
    while state["to_move"]:
        moves = engine.legal_moves(state)
        for move in moves:
            assert validate("Move", move) == []
        move = {k: v for k, v in rnd.choice(moves).items() if k != "p"}
        state, _, logged = engine.step(state, move)
        played.add(logged["type"])
        for seat in [None, *range(1, players + 1)]:
            assert validate("Move", engine.view_move(logged, seat)) == []
            assert validate("View", engine.view(state, seat)) == []
        assert validate("Score", engine.score(state)) == []
    chance = {"remove_witch", "draw"} if mode == "tabletop" else set()  # digital: the referee's
    assert played == {"pick_witch", "push", "operate"} | chance


def test_GM_6_2_a_leaked_or_malformed_field_fails_its_schema(table, engine, validate):
    state = table.refill(table.setup(), 4)
    view = engine.view(state, 2)
    assert validate("View", view) == []
    leaks = [dict(view, bag=state["bag"]), dict(view, rng=state["rng"]),
             dict(view, seats=[dict(view["seats"][0], pop=[1, 2]), view["seats"][1]]),
             dict(view, altars=dict(view["altars"], w1=[1, 2, 4])),
             dict(view, seats=[dict(view["seats"][0], pentacle=[3] * 7), view["seats"][1]])]
    for leak in leaks:
        assert validate("View", leak) != [], leak
    draw = {"type": "draw", "seat": CHANCE, "chip": 5, "into": "hand", "holder": 1}
    assert validate("Move", draw) == []
    assert validate("Move", engine.view_move(draw, 2)) == []  # redacted: no chip
    for bad in [dict(draw, holder="w1"), dict(draw, into="altar"), dict(draw, chip=3),
                dict(draw, seat=1), dict(draw, secret=5)]:
        assert validate("Move", bad) != [], bad
    push = {"type": "push", "seat": 1, "chip": 5}
    for bad in [dict(push, seat=5), dict(push, chip=9), dict(push, altar="w1"),
                {"type": "push", "seat": 1}]:
        assert validate("Move", bad) != [], bad


OPTION_VALUES = [
    # (option, value, what the engine does: "ok", "refused", or the combination rule)
    ("draft", True, "ok"), ("draft", 1, "refused"), ("draft", "yes", "refused"),
    ("pentacle_lines", FANO_LINES, "ok"), ("pentacle_lines", LINES, "ok"),
    ("pentacle_lines", LINES[:6], "refused"), ("pentacle_lines", [*LINES, [0, 1, 4]], "refused"),
    ("pentacle_lines", [[0, 1, 7], *LINES[1:]], "refused"),
    ("pentacle_lines", [[0, 1, 1], *LINES[1:]], "refused"),
    ("pentacle_lines", [[0, 1], *LINES[1:]], "refused"),
    ("pentacle_lines", [LINES[1], *LINES[1:]], "refused"),
    ("pentacle_lines", [[1, 0, 2], *LINES[:6]], "GM-1.5"),  # the same line, another order
    ("pentacle_lines", "fano", "refused"),
    ("blessing_values", GAUGE_VALUES, "ok"), ("blessing_values", [0] * 7, "ok"),
    ("blessing_values", [MAX_BLESSING] * 7, "ok"),
    ("blessing_values", [0, 1, 2, 3, 4, 5, MAX_BLESSING + 1], "refused"),
    ("blessing_values", [-1, 1, 2, 3, 4, 5, 6], "refused"),
    ("blessing_values", [0, 1, 2, 3, 4, 5], "refused"),
    ("blessing_values", [0, 1, 2, 3, 4, 5, "6"], "refused"),
    ("blessing_values", [0, 1, 2, 3, 4, 6, 5], "GM-1.6"),  # decreasing along the gauge
]


@pytest.mark.parametrize("name, value, verdict", OPTION_VALUES)
def test_GM_1_5_GM_1_6_option_schemas_and_the_engine_agree(engine, name, value, verdict):
    """A value the schema allows is accepted, or refused only by a rule no schema states
    (named); a value the schema forbids is refused, naming the option and its rule."""
    allowed = Draft202012Validator(engine.options[name].schema).is_valid(value)
    assert allowed == (verdict != "refused")
    if verdict == "ok":
        assert engine.resolve_options({name: value}, 2)[name] == value
        return
    with pytest.raises(InvalidOptions) as refused:
        engine.resolve_options({name: value}, 2)
    assert name in refused.value.detail
    assert refused.value.rule == (verdict if verdict.startswith("GM") else
                                  {"draft": "GM-2.1", "pentacle_lines": "GM-1.5",
                                   "blessing_values": "GM-1.6"}[name])


def test_GM_3_8_move_types_are_the_wire_descriptions(engine):
    for schema in [*wire.MOVES.values(), *wire.OPTIONS.values(), wire.VIEW, wire.BREAKDOWN,
                   wire.CALCULATE, wire.COMPONENTS]:
        Draft202012Validator.check_schema(schema)
    assert engine.move_types == {t: s["description"] for t, s in wire.MOVES.items()}
    assert engine.info()["move_types"]["push"] == "a hand chip onto the stack (GM-3.3)"


def test_GM_1_2_the_catalog_is_the_engines_own_data(engine, validate):
    """GM-1.2–GM-1.7, GM-4.2, GM-5.2: the catalog matches its schema and the engine."""
    catalog = engine.components()
    assert validate("Components", catalog) == []
    assert catalog["chips"]["values"] == list(VALUES)
    table = catalog["operation"]["table"]
    assert all(table[i][j] == operation(a, b) for i, a in enumerate(VALUES)
               for j, b in enumerate(VALUES))
    assert table[VALUES.index(2)][VALUES.index(8)] == 7  # the rulebook's 2 × 8 = 16 → 7
    assert catalog["pentacle"]["lines"] == engine.options["pentacle_lines"].default
    assert catalog["ritual_board"]["gauge_values"] == engine.options["blessing_values"].default
    assert {p["id"]: p["points"] for p in catalog["patterns"]} == PATTERNS
    assert [w["id"] for w in catalog["witches"]] == list(WITCHES)
    assert all(w["ability"] is None and "GM-4.2" in w["text"]["en"]
               for w in catalog["witches"])
    assert [a["name"]["ja"] for a in catalog["altars"]] == [
        "白の祭壇1", "白の祭壇2", "白の祭壇3", "黒の祭壇"]
    assert validate("Components", dict(catalog, extra=1)) != []


def test_GM_1_7_a_position_beyond_every_blessing_is_refused(table, engine, validate):
    """GM-1.7, GM-3.6: pawns start on 0..3 and 4 seats × 7 turns of blessings of at most
    1000 squares raise the highest position by at most that much."""
    assert MAX_POSITION == 3 + 4 * 7 * MAX_BLESSING
    state = table.refill(table.setup(), 4)
    state["seats"][1]["position"] = MAX_POSITION
    engine.check_state(state)
    assert validate("View", engine.view(state)) == []
    state["seats"][1]["position"] = MAX_POSITION + 1
    with pytest.raises(InvalidState) as refused:
        engine.check_state(state)
    assert f"from 0 to {MAX_POSITION}" in refused.value.detail


def test_GM_2_1_forged_removed_witches_are_refused_with_a_sentence(table, engine):
    state = table.refill(table.setup(), 4)
    state["removed_witches"] = [[1], [1]]
    with pytest.raises(InvalidState) as refused:
        engine.check_state(state)
    assert refused.value.detail == "removed_witches must list distinct witches 1..6, sorted"


def test_GM_5_2_the_score_helper_is_checked_against_its_schema():
    """GM-5.2: a body its schema forbids gets 400 with each error at its path; the example
    the schema carries is scored."""
    client = create_app({"TESTING": True}).test_client()
    example = wire.CALCULATE["examples"][0]
    assert client.post("/v1/calculate", json=example).get_json()["scores"][0]["total"] == 43
    body = {"seats": [{"seat": 1, "track": -1, "pentacle": [1, 1, 1, 1, 2, 7, 9]},
                      {"seat": 2, "track": 13, "pentacle": [2, 4, 5, 7, 8, 2, 4], "gauge": 7}]}
    answer = client.post("/v1/calculate", json=body)
    assert answer.status_code == 400
    assert set(answer.get_json()["errors"]) == {"seats.0.track", "seats.0.pentacle.6",
                                                "seats.1.gauge"}
