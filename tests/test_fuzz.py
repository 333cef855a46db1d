"""Forged states and odd moves at every stateless route of every game: always a
problem+json 4xx or a 200, never a 500 (the service answers whatever it is sent)."""

import random

import pytest

from referee.conformance import forge
from referee.registry import engines
from support import service_app

MUTATIONS_PER_STATE = 20
STATES_PER_GAME = 25


def sample_states(engine, rnd):
    """States from seeded random games, spread over their whole length."""
    states = []
    for seed in range(3):
        state = engine.new(engine.min_players + seed % (engine.max_players - engine.min_players
                                                        + 1), seed=seed)
        while state["to_move"]:
            states.append(state)
            state, _ = engine.apply(state, rnd.choice(engine.legal_moves(state)))
        states.append(state)
    return rnd.sample(states, min(STATES_PER_GAME, len(states)))


@pytest.mark.parametrize("game", sorted(engines()))
def test_forged_states_never_crash_a_service(game):
    engine, rnd = engines()[game], random.Random(game)
    client = service_app(game).test_client()
    statuses = set()
    for state in sample_states(engine, rnd):
        moves = engine.legal_moves(state) or [{"type": "pass", "seat": 1}]
        for _ in range(MUTATIONS_PER_STATE):
            forged = forge(state, rnd)
            move = forge(rnd.choice(moves), rnd) if rnd.random() < 0.3 else rnd.choice(moves)
            for route, body in (("/v1/legal-moves", {"state": forged}),
                                ("/v1/view", {"state": forged, "seat": 1}),
                                ("/v1/score", {"state": forged}),
                                ("/v1/redact", {"state": forged, "entries": [],
                                                "seats": [1, None]}),
                                ("/v1/apply", {"state": forged, "move": move, "view_as": 1}),
                                ("/v1/apply", {"state": state, "move": move})):
                answer = client.post(route, json=body)
                statuses.add(answer.status_code)
                assert answer.status_code < 500, (route, answer.get_json(), forged)
                if answer.status_code >= 400:
                    assert answer.mimetype == "application/problem+json"
    assert 422 in statuses, "the forgeries were all accepted: the fuzzer forged nothing"
