"""Bad requests of every kind answer 4xx problem+json and leave the session as it was."""

import json

import pytest

from support import (
    assert_problem, bearer, create_session, first_move, seat_token, session_url, snapshot,
)

BAD_BODIES = [
    (b"{not json", 400, "invalid_json"),
    (b"", 400, "invalid_json"),
    (b'"move"', 400, "bad_request"),
    (b'{"move": NaN}', 400, "invalid_json"),
    (b"\xc3\x28", 400, "invalid_json"),
    (b'{"move": ' + b"[" * 50_000 + b"]" * 50_000 + b"}", 400, "invalid_json"),
    (json.dumps({"move": "place a1"}).encode(), 400, "bad_request"),
    (json.dumps({"move": {"type": "place"}, "cheat": True}).encode(), 400, "bad_request"),
    (json.dumps({}).encode(), 400, "bad_request"),
    (json.dumps({"move": {"type": "place", "plate": "z9", "rocks": 3}}).encode(), 422,
     "illegal_move"),
    (json.dumps({"move": {"type": "teleport"}}).encode(), 422, "illegal_move"),
    (json.dumps({"move": {"type": "pass", "seat": 1.5}}).encode(), 403, "forbidden"),
    (json.dumps({"move": {"type": "pass", "seat": True}}).encode(), 403, "forbidden"),
    (b'{"move": {"type": "pass", "pad": "' + b"x" * (2 << 20) + b'"}}', 413,
     "payload_too_large"),
]


@pytest.mark.parametrize("body,status,code", BAD_BODIES)
def test_bad_move_bodies(client, redis_client, body, status, code):
    session = create_session(client)
    before = snapshot(redis_client, session)
    answer = client.post(session_url(session, "/moves"), data=body,
                         content_type="application/json",
                         headers=bearer(seat_token(session, 1)))
    problem = assert_problem(answer, status, code)
    if code == "illegal_move":
        assert problem["rule"].startswith("G-")
    assert snapshot(redis_client, session) == before


@pytest.mark.parametrize("headers,status,code", [
    ({"If-Match": "yesterday"}, 400, "bad_request"),
    ({"If-Match": '"3"'}, 412, "version_conflict"),
    ({"Idempotency-Key": "k" * 201}, 400, "bad_request"),
    ({"Authorization": "Bearer not-a-token"}, 401, "unauthorized"),
    ({"Authorization": ""}, 401, "unauthorized"),
])
def test_bad_move_headers(client, redis_client, headers, status, code):
    session = create_session(client)
    token = seat_token(session, 1)
    move = first_move(client, session, token)
    before = snapshot(redis_client, session)
    answer = client.post(session_url(session, "/moves"), json={"move": move},
                         headers={**bearer(token), **headers})
    assert_problem(answer, status, code)
    assert snapshot(redis_client, session) == before


@pytest.mark.parametrize("body,status,code", [
    ({"game": "chess", "players": 2}, 404, "unknown_game"),
    ({"game": "ghostone", "players": 2}, 422, "invalid_players"),
    ({"game": "ghostone", "players": "3"}, 400, "bad_request"),
    ({"game": "ghostone", "players": 3, "mode": "cloud"}, 400, "bad_request"),
    ({"game": "ghostone", "players": 3, "options": {"ghosts": 2}}, 422, "invalid_options"),
    ({"game": "ghostone", "players": 3, "state": {}}, 400, "bad_request"),
    ({"players": 3}, 400, "bad_request"),
])
def test_bad_session_creation(client, body, status, code):
    assert_problem(client.post("/v1/sessions", json=body), status, code)


def test_unknown_and_malformed_sessions(client):
    session = create_session(client)
    token = bearer(seat_token(session, 1))
    for sid in ("nope", "x" * 65, "a{b}c", "a%20b"):
        assert_problem(client.get(f"/v1/sessions/{sid}", headers=token), 404, "unknown_session")
    assert_problem(client.post("/v1/sessions/nope/moves", json={"move": {}}, headers=token),
                   404, "unknown_session")


@pytest.mark.parametrize("since", ["-1", "x", "1.5", "9" * 13])
def test_bad_log_since(client, since):
    session = create_session(client)
    answer = client.get(session_url(session, f"/log?since={since}"),
                        headers=bearer(session["spectator_token"]))
    assert_problem(answer, 400, "bad_request")


def test_unknown_routes_and_methods(client):
    assert_problem(client.get("/v1/nothing"), 404, "not_found")
    assert_problem(client.put("/v1/sessions"), 405, "method_not_allowed")
