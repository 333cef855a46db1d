"""Corrections (issue 12.3): undo/redo in tabletop sessions, a seat's take-back in
digital ones — nothing deleted, each refusal with its code, every correction a
compare-and-set. Through the gateway, on real Redis (standalone and cluster)."""

import json

import pytest

from referee.sessions import keys
from referee.sessions.store import SessionStore
from support import (
    assert_problem, bearer, create_session, first_move, play, seat_token, session_url, snapshot,
)


def race(gateway_app, posts, headers):
    """Send every (url, body) at once, each from its own client thread."""
    import threading
    start, answers = threading.Barrier(len(posts)), [None] * len(posts)

    def send(i):
        client = gateway_app.test_client()
        start.wait()
        answers[i] = client.post(posts[i][0], json=posts[i][1], headers=headers)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(posts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def enter(client, session, count):
    """The table enters ``count`` first legal moves (chance outcomes included)."""
    token, versions = session["table_token"], [session["version"]]
    for _ in range(count):
        move = client.get(session_url(session, "/legal-moves"),
                          headers=bearer(token)).get_json()["moves"][0]
        answer = play(client, session, token, move)
        assert answer.status_code == 200, answer.get_json()
        versions.append(answer.get_json()["version"])
    return versions


def view(client, session, token):
    return client.get(session_url(session), headers=bearer(token)).get_json()


def undo(client, session, token, **body):
    headers = bearer(token)
    if "if_match" in body:
        headers["If-Match"] = f'"{body.pop("if_match")}"'
    return client.post(session_url(session, "/undo"), json=body, headers=headers)


def log(client, session, token):
    return client.get(session_url(session, "/log"), headers=bearer(token)).get_json()["entries"]


def test_undo_goes_back_to_an_earlier_version_and_marks_what_it_took_back(client,
                                                                          redis_client):
    session = create_session(client, mode="tabletop")
    table = session["table_token"]
    versions = enter(client, session, 4)
    answer = undo(client, session, table, to_version=versions[1])
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["version"] == versions[-1] + 1, "a correction is a new version"
    assert body["entry"]["correction"] == "undo"
    assert body["entry"]["versions"] == versions[2:]
    state = json.loads(redis_client.get(keys.state(session["session_id"])))
    before = SessionStore(redis_client, 60).snapshot(session["session_id"], versions[1])
    assert dict(state, version=0) == dict(before, version=0), "the position of version 1"
    entries = log(client, session, table)
    assert [e["version"] for e in entries] == versions[1:] + [body["version"]], \
        "nothing deleted"
    assert [bool(e.get("undone")) for e in entries] == [False, True, True, True, False]


def test_redo_reverses_the_latest_undo_until_a_move_is_entered(client):
    session = create_session(client, mode="tabletop")
    table = session["table_token"]
    versions = enter(client, session, 3)
    end_view = view(client, session, table)["view"]
    undo(client, session, table, to_version=versions[1])
    undo(client, session, table, to_version=versions[0])
    redo = client.post(session_url(session, "/redo"), json={}, headers=bearer(table))
    assert redo.status_code == 200 and redo.get_json()["entry"]["correction"] == "redo"
    redo = client.post(session_url(session, "/redo"), json={}, headers=bearer(table))
    assert redo.status_code == 200
    shown = view(client, session, table)["view"]
    assert dict(shown, version=0) == dict(end_view, version=0), "back where the table was"
    assert not any(e.get("undone") for e in log(client, session, table))
    assert_problem(client.post(session_url(session, "/redo"), json={}, headers=bearer(table)),
                   409, "nothing_to_redo")
    undo(client, session, table)  # default: before the last move
    enter(client, session, 1)
    assert_problem(client.post(session_url(session, "/redo"), json={}, headers=bearer(table)),
                   409, "nothing_to_redo")


def test_undo_refusals_have_their_codes_and_change_nothing(client, redis_client):
    session = create_session(client, mode="tabletop")
    table = session["table_token"]
    assert_problem(undo(client, session, table), 409, "nothing_to_undo")
    versions = enter(client, session, 3)
    undo(client, session, table, to_version=versions[1])
    before = snapshot(redis_client, session)
    for target in (versions[2], versions[-1] + 5, 99):  # undone, the future, never
        assert_problem(undo(client, session, table, to_version=target), 409,
                       "undo_target_invalid")
    assert_problem(undo(client, session, seat_token(session, 1)), 403, "forbidden")
    assert_problem(undo(client, session, session["spectator_token"]), 403, "forbidden")
    assert_problem(undo(client, session, table, to_version=-1), 400, "bad_request")
    assert_problem(undo(client, session, table, to_version=versions[0], if_match=1), 412,
                   "version_conflict")
    assert snapshot(redis_client, session) == before
    digital = create_session(client)
    assert_problem(undo(client, digital, digital["table_token"]), 403, "forbidden")
    assert_problem(client.post(session_url(digital, "/redo"), json={},
                               headers=bearer(digital["table_token"])), 403, "forbidden")


def test_two_undos_on_one_version_exactly_one_lands(gateway_app, client, redis_client):
    session = create_session(client, mode="tabletop")
    versions = enter(client, session, 3)
    answers = race(gateway_app, [
        (session_url(session, "/undo"), {"to_version": v}) for v in versions[:2]],
        {**bearer(session["table_token"]), "If-Match": f'"{versions[-1]}"'})
    assert sorted(a.status_code for a in answers) == [200, 412]
    assert len(snapshot(redis_client, session)[2]) == 4


def test_a_seat_takes_back_its_own_last_move_while_nothing_was_revealed(client,
                                                                       redis_client):
    session = create_session(client, game="ghostone", players=3, seed=7)
    one = seat_token(session, 1)
    moved = play(client, session, one, first_move(client, session, one)).get_json()
    assert moved["version"] == 1, "a placement plays no chance"
    before_view = view(client, session, one)
    assert_problem(undo(client, session, seat_token(session, 2)), 409,
                   "takeback_not_last_move")
    back = undo(client, session, one)
    assert back.status_code == 200, back.get_json()
    entry = back.get_json()["entry"]
    assert entry["correction"] == "takeback" and entry["to_version"] == 0
    assert back.get_json()["to_move"] == [1] and back.get_json()["version"] == 2
    assert before_view["version"] == 1
    raw = [json.loads(e) for e in redis_client.lrange(keys.log(session["session_id"]), 0, -1)]
    assert raw[0]["undone"] is True and raw[1]["correction"] == "takeback"
    assert_problem(undo(client, session, one), 409, "takeback_not_last_move")
    again = play(client, session, one, first_move(client, session, one))
    assert again.status_code == 200 and again.get_json()["version"] == 3


def test_no_take_back_after_chance_was_played(client):
    """Ghostone: a move after which the ghost's die rolled (the version jumps)."""
    session = create_session(client, game="ghostone", players=3, seed=0)
    tokens = {s["seat"]: s["token"] for s in session["seats"]}
    version = session["version"]
    for _ in range(200):
        seat = view(client, session, tokens[1])["to_move"][0]
        answer = play(client, session, tokens[seat], first_move(client, session, tokens[seat]))
        jumped = answer.get_json()["version"] - version > 1
        version = answer.get_json()["version"]
        if jumped and answer.get_json()["to_move"]:
            break
    assert jumped, "a roll was played and the game goes on"
    assert_problem(undo(client, session, tokens[seat]), 409, "takeback_after_chance")


def test_no_take_back_of_a_move_that_carries_a_secret(client):
    """Three Magic: a call-window answer is sealed from the others (T-10.2)."""
    session = create_session(client, game="threemagic", players=3, seed=0)
    tokens = {s["seat"]: s["token"] for s in session["seats"]}
    for _ in range(100):
        to_move = view(client, session, tokens[1])["to_move"]
        seat = to_move[0]
        move = first_move(client, session, tokens[seat])
        answer = play(client, session, tokens[seat], move).get_json()
        if move["type"] == "pass" and len(to_move) > 1:
            break
    assert move["type"] == "pass"
    assert_problem(undo(client, session, tokens[seat]), 409, "takeback_hidden_information")


def test_no_take_back_once_the_game_is_over(client):
    session = create_session(client, game="ghostone", players=3, seed=21)
    tokens = {s["seat"]: s["token"] for s in session["seats"]}
    while True:
        to_move = view(client, session, tokens[1])["to_move"]
        if not to_move:
            break
        seat = to_move[0]
        play(client, session, tokens[seat], first_move(client, session, tokens[seat]))
    assert_problem(undo(client, session, tokens[seat]), 409, "takeback_game_over")


def test_a_plan_that_reads_a_log_newer_than_its_session_plans_again():
    """Two undos racing on the Cluster: the loser read the session at v, then the log after
    the winner landed v+1; refusing on that log answered 409 where its compare-and-set
    would fail (412 with If-Match, else planned again). The log is read as of the session."""
    from types import SimpleNamespace

    from referee_gateway.access import Stale, entries_of

    log = [{"version": 4}, {"version": 5}]
    store = SimpleNamespace(entries=lambda sid: log)
    with pytest.raises(Stale):
        entries_of(store, SimpleNamespace(sid="s", version=4))
    assert entries_of(store, SimpleNamespace(sid="s", version=5)) == log
