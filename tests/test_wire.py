"""Every game's answers match the schemas generated from its one wire description.

Seeded games of every game, digital and tabletop, are played to the end; at each
step every listed move, the move as logged and redacted for each seat, every
view, the events as each seat sees them and the score are validated against the game's JSON Schemas
(``referee.wire``), the same ones the OpenAPI documents serve. Every move type a
game plays is described, and every move reads as text in English and Japanese.
"""

import random

import pytest
from jsonschema import Draft202012Validator

from referee import wire
from referee.engine import CHANCE, LANGUAGES
from referee.registry import engines

GAMES = engines()
SEEDS = 3


def validator_for(engine):
    """``validate(name, instance)`` against the game's named schemas (as OpenAPI serves them)."""
    document = {"components": {"schemas": wire.components(engine)}}

    def validate(name, instance):
        schema = dict(document, **{"$ref": f"#/components/schemas/{name}"})
        errors = sorted(Draft202012Validator(schema).iter_errors(instance), key=str)
        assert not errors, f"{engine.id}: not a {name}: {errors[0].message} at " \
                           f"{list(errors[0].absolute_path)} in {str(instance)[:300]}"
    return validate


@pytest.mark.parametrize("mode", ["digital", "tabletop"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_answers_match_the_games_schemas(game, mode):
    engine = GAMES[game]
    if not engine.move_schemas:
        pytest.fail(f"{game} has no wire description (wire.py: move_schemas …)")
    validate = validator_for(engine)
    p = wire.prefix(engine)
    seen_types, seen_events = set(), set()
    for seed in range(SEEDS):
        rnd = random.Random(seed)
        players = engine.min_players + seed % (engine.max_players - engine.min_players + 1)
        state, events = engine.start(players, seed=seed, mode=mode)
        while state["to_move"]:
            moves = engine.legal_moves(state)
            for move in moves:
                if "describe" not in move:
                    validate(f"{p}Move", move)
            move = _pick(engine, state, moves, rnd)
            for seat in [None, *range(1, players + 1)]:  # the events that led here
                for shown in engine.view_events(events, seat):
                    validate(f"{p}Event", shown)
                    seen_events.add(shown["type"])
            new, events, logged = engine.step(state, move)
            seen_types.add(logged["type"])
            for seat in [None, *range(1, players + 1)]:
                validate(f"{p}Move", engine.view_move(logged, seat))
                validate(f"{p}View", engine.view(new, seat))
            validate(f"{p}State", new)
            state = new
        for seat in [None, *range(1, players + 1)]:  # the last move's (game_over)
            for shown in engine.view_events(events, seat):
                validate(f"{p}Event", shown)
                seen_events.add(shown["type"])
        validate(f"{p}Score", engine.score(state))
    assert seen_types <= set(engine.move_schemas)
    assert seen_events <= set(engine.event_schemas)


def _pick(engine, state, moves, rnd):
    if state["to_move"] == [CHANCE] and any("describe" in m for m in moves):
        from referee.rng import Pcg32
        return engine._sample_chance(state, Pcg32.from_seed(rnd.getrandbits(64)))
    return {k: v for k, v in rnd.choice(moves).items() if k != "p"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_move_type_reads_as_text_in_every_language(game):
    engine = GAMES[game]
    rnd = random.Random(7)
    texts = {}
    state = engine.new(engine.min_players, seed=7, mode="tabletop")
    steps = 0
    while state["to_move"] and steps < 400:
        moves = [m for m in engine.legal_moves(state) if "describe" not in m]
        for move in moves[:20]:
            readings = {lang: engine.move_text(move, lang) for lang in LANGUAGES}
            assert all(readings.values()), f"{game}: empty text for {move}"
            assert readings["en"] != readings["ja"], f"{game}: no Japanese text for {move}"
            assert engine.move_text(dict(move), "en") == readings["en"]
            texts.setdefault(move["type"], readings)
        if not moves:  # a chance event described, not listed
            state = engine.apply(state, _pick(engine, state, engine.legal_moves(state), rnd))[0]
        else:
            state = engine.apply(state, {k: v for k, v in rnd.choice(moves).items()
                                         if k != "p"})[0]
        steps += 1
    assert texts, f"{game}: no move was read"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_score_helper_example_is_valid_and_accepted(game):
    engine = GAMES[game]
    assert engine.calculate_schema is not None, f"{game}: the score helper has no schema"
    validate = validator_for(engine)
    example = engine.calculate_schema.get("examples", [None])[0]
    assert example is not None, f"{game}: the score helper's schema has no example"
    validate(f"{wire.prefix(engine)}CalculateRequest", example)
    validate(f"{wire.prefix(engine)}Score", engine.calculate(example))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_component_catalog_is_data_and_stable(game):
    engine = GAMES[game]
    catalog = engine.components()
    assert catalog, f"{game}: empty component catalog"
    assert engine.components() == catalog
    import json
    json.dumps(catalog)
