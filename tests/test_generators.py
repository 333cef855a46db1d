"""Issue 27.2: a digital session draws from a generator no player can predict (BLAKE2b keyed
with a 256-bit secret), kept in the session and never in an answer; a session created with a
client's seed keeps the seeded PCG32, and says so in every view and in the lobby; the
stateless routes refuse a forged generator state."""

import json
import random

import pytest

from referee.registry import engines
from referee.rng import Pcg32
from referee.sessions import keys
from support import assert_problem, bearer, create_session, seat_token, session_url

GAMES = sorted(engines())


@pytest.mark.parametrize("game", GAMES)
def test_a_game_without_a_seed_draws_from_a_fresh_secret_key_to_its_end(game):
    engine = engines()[game]
    state = engine.new(engine.min_players)
    assert set(state["rng"]) == {"key", "counter"} and len(state["rng"]["key"]) == 64
    assert engine.new(engine.min_players)["rng"]["key"] != state["rng"]["key"]
    assert engine.view(state)["seeded"] is False
    assert engine.view(engine.new(engine.min_players, seed=5), 1)["seeded"] is True
    # a whole game on the secret generator, every state checked as a caller's would be
    rnd, steps = random.Random(game), 0
    while state["to_move"]:
        engine.check_state(state)
        state, _ = engine.apply(state, rnd.choice(engine.legal_moves(state)))
        steps += 1
    assert steps > 0 and int(state["rng"]["counter"], 16) > 0


@pytest.mark.parametrize("game", GAMES)
def test_a_seeded_game_keeps_pcg32_exactly(game):
    """The golden playthroughs replay seeded games; here the generator itself: a seeded
    state's generator is PCG32 from that seed, advanced by the setup's draws alone."""
    engine = engines()[game]
    state = engine.new(engine.min_players, seed=11)
    rng, draws = Pcg32.from_seed(11), 0
    while rng.to_json() != state["rng"]:
        rng.next_u32()
        draws += 1
        assert draws < 100_000, "not PCG32 from the seed"
    assert engine.view(state)["seeded"] is True


def secret_key(redis_client, session) -> str:
    return json.loads(redis_client.get(keys.state(session["session_id"])))["rng"]["key"]


def every_answer(client, session, tokens) -> list[str]:
    """What each token can read of the session now, as text."""
    texts = []
    for token in tokens:
        for tail in ("", "/legal-moves", "/log", "/score", "/picture.svg", "/hint"):
            answer = client.get(session_url(session, tail), headers=bearer(token))
            texts.append(answer.get_data(as_text=True))
    return texts


def test_a_session_without_a_seed_never_answers_its_key(client, redis_client):
    session = create_session(client, game="threemagic", players=3)
    key = secret_key(redis_client, session)
    assert session["view"]["seeded"] is False and key not in json.dumps(session)
    tokens = [seat_token(session, s) for s in (1, 2, 3)] + [
        session["table_token"], session["spectator_token"]]
    texts = []
    for _ in range(6):  # moves, each followed by the draws of a digital game
        shown = client.get(session_url(session), headers=bearer(tokens[0])).get_json()
        seat = shown["to_move"][0]
        moves = client.get(session_url(session, "/legal-moves"),
                           headers=bearer(tokens[seat - 1])).get_json()["moves"]
        moved = client.post(session_url(session, "/moves"), json={"move": moves[0]},
                            headers=bearer(tokens[seat - 1]))
        assert moved.status_code == 200, moved.get_json()
        texts.append(moved.get_data(as_text=True))
        texts += every_answer(client, session, tokens)
        assert secret_key(redis_client, session) == key, "the key stays; the counter moves"
    assert all(key not in text and key[:16] not in text for text in texts)
    views = [json.loads(t)["view"] for t in texts if t.startswith('{"session_id"')]
    assert views and all(view["seeded"] is False for view in views)


def test_a_seeded_session_says_so_in_every_view_and_in_the_lobby(client):
    table = create_session(client, game="gematon", players=2, seed=42, seats="open",
                           public=True)
    unseeded = create_session(client, game="gematon", players=2, seats="open", public=True)
    assert table["view"]["seeded"] is True and unseeded["view"]["seeded"] is False
    listed = {t["session_id"]: t["seeded"]
              for t in client.get("/v1/lobby?game=gematon").get_json()["tables"]}
    assert listed[table["session_id"]] is True and listed[unseeded["session_id"]] is False
    joined = [client.post("/v1/sessions/join", json={"code": table["join_code"]}).get_json()
              for _ in range(2)]
    for token in [j["token"] for j in joined] + [table["table_token"],
                                                 table["spectator_token"]]:
        assert client.get(session_url(table), headers=bearer(token)).get_json()[
            "view"]["seeded"] is True


@pytest.mark.parametrize("forged", [
    {"state": "0" * 16, "inc": "0" * 16},  # an even increment: never written
    {"state": "0" * 16, "inc": "1" * 16, "key": "0" * 64},
    {"key": "0" * 63, "counter": "0" * 16},
    {"key": "0" * 64, "counter": 0},
    {"key": "Z" * 64, "counter": "0" * 16},
    {"key": "0" * 64, "counter": "0" * 16, "seed": 42},
])
def test_the_stateless_routes_refuse_a_forged_generator(client, forged):
    state = client.post("/v1/games/gematon/new", json={"players": 2}).get_json()["state"]
    assert set(state["rng"]) == {"key", "counter"}
    assert client.post("/v1/games/gematon/view", json={"state": state}).status_code == 200
    refused = client.post("/v1/games/gematon/view", json={"state": dict(state, rng=forged)})
    problem = assert_problem(refused, 422, "invalid_state")
    assert problem["detail"] == "state.rng is not a generator state"  # echoes nothing back
