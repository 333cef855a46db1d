"""What each token may do and see: seats, table, spectator — for every game."""

import json

import pytest

from referee.registry import engines
from referee.sessions import keys
from support import (
    assert_problem, bearer, create_session, first_move, play, seat_token, session_url, snapshot,
)


def test_a_seat_cannot_move_for_another_seat(client, redis_client):
    session = create_session(client)
    move = first_move(client, session, seat_token(session, 1))
    before = snapshot(redis_client, session)
    for token in (seat_token(session, 2), seat_token(session, 3)):
        assert_problem(play(client, session, token, move), 403, "forbidden")
        assert_problem(play(client, session, token, dict(move, seat="chance")), 403,
                       "forbidden")
    assert snapshot(redis_client, session) == before


def test_a_seat_token_of_one_session_is_nothing_in_another(client):
    one, other = create_session(client), create_session(client)
    answer = client.get(session_url(other), headers=bearer(seat_token(one, 1)))
    assert_problem(answer, 401, "unauthorized")
    assert_problem(client.get(session_url(other)), 401, "unauthorized")
    assert_problem(client.get(session_url(other), headers={"Authorization": "Basic x"}),
                   401, "unauthorized")


def test_a_spectator_sees_the_public_view_and_cannot_move(client, redis_client):
    session = create_session(client)
    spectator = session["spectator_token"]
    shown = client.get(session_url(session), headers=bearer(spectator)).get_json()
    assert shown["you"] == {"role": "spectator", "seat": None}
    move = first_move(client, session, seat_token(session, 1))
    before = snapshot(redis_client, session)
    assert_problem(play(client, session, spectator, move), 403, "forbidden")
    assert_problem(client.get(session_url(session, "/legal-moves"), headers=bearer(spectator)),
                   403, "forbidden")
    assert_problem(client.delete(session_url(session), headers=bearer(spectator)), 403,
                   "forbidden")
    assert snapshot(redis_client, session) == before


def test_the_table_token_moves_only_in_tabletop_sessions(client):
    digital = create_session(client)
    move = first_move(client, digital, seat_token(digital, 1))
    assert_problem(play(client, digital, digital["table_token"], move), 403, "forbidden")
    table = create_session(client, mode="tabletop")
    token = table["table_token"]
    moves = client.get(session_url(table, "/legal-moves"), headers=bearer(token)).get_json()
    assert moves["to_move"] == [1] and moves["moves"]
    assert play(client, table, token, moves["moves"][0]).status_code == 200
    assert_problem(play(client, table, token, {"type": "pass"}), 400, "bad_request")


@pytest.mark.parametrize("game", sorted(engines()))
def test_no_token_shows_the_generator_or_another_seats_secrets(client, redis_client, game):
    engine = engines()[game]
    session = create_session(client, game=game, players=engine.min_players, seed=8)
    sid = session["session_id"]
    for _ in range(12):  # a few moves in, so hands and decks have moved
        state = json.loads(redis_client.get(keys.state(sid)))
        if not state["to_move"]:
            break
        seat = state["to_move"][0]
        play(client, session, seat_token(session, seat), first_move(
            client, session, seat_token(session, seat)))
    state = json.loads(redis_client.get(keys.state(sid)))
    rng = state["rng"]["state"]
    callers = [(s["token"], s["seat"]) for s in session["seats"]]
    callers += [(session["spectator_token"], None), (session["table_token"], None)]
    for token, seat in callers:
        shown = client.get(session_url(session), headers=bearer(token)).get_json()
        assert shown["view"] == engine.view(state, seat), "the gateway shows the engine's view"
        answers = [shown, client.get(session_url(session, "/log"), headers=bearer(token)),
                   client.get(session_url(session, "/score"), headers=bearer(token))]
        if seat:
            answers.append(client.get(session_url(session, "/legal-moves"),
                                      headers=bearer(token)))
        for answer in answers:
            text = json.dumps(answer if isinstance(answer, dict) else answer.get_json())
            assert rng not in text and '"rng"' not in text
        log = client.get(session_url(session, "/log"), headers=bearer(token)).get_json()
        raw = [json.loads(e) for e in redis_client.lrange(keys.log(sid), 0, -1)]
        assert [e["events"] for e in log["entries"]] == [
            engine.view_events(e["events"], seat) for e in raw]
