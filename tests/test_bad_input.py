"""Bad requests of every kind answer 4xx problem+json and leave the session as it was."""

import json
import re

import pytest

from support import (
    assert_problem, bearer, create_session, first_move, play, seat_token, session_url, snapshot,
)

BAD_BODIES = [
    (b"{not json", 400, "invalid_json"),
    (b"", 400, "invalid_json"),
    (b'"move"', 400, "bad_request"),
    (b'{"move": NaN}', 400, "invalid_json"),
    (b"\xc3\x28", 400, "invalid_json"),
    (b'{"move": ' + b"[" * 50_000 + b"]" * 50_000 + b"}", 400, "invalid_json"),
    (json.dumps({"move": "place a1"}).encode(), 400, "bad_request"),
    (json.dumps({"move": {"type": "place"}, "cheat": True}).encode(), 400, "unknown_field"),
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
    if code == "unknown_field":  # named, not told as what is then missing
        assert re.search(r'unknown field "cheat"', problem["detail"]), problem
    assert snapshot(redis_client, session) == before


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", None])
def test_every_route_that_takes_a_body_refuses_one_not_sent_as_json(client, content_type):
    """415, documented, on every route with a request body (the gateway's and each game's
    stateless ones): a JSON text sent as anything else is never guessed to be JSON."""
    session = create_session(client)
    document = client.get("/openapi.json").get_json()
    routes = [(path, method) for path, operations in document["paths"].items()
              for method, operation in operations.items() if "requestBody" in operation]
    assert len(routes) >= 30, routes
    for path, method in routes:
        assert "415" in document["paths"][path][method]["responses"], (method, path)
        url = path.replace("{sid}", session["session_id"]).replace("{seat}", "1")
        answer = client.open(url, method=method.upper(), data=b'{"players": 3}',
                             content_type=content_type,
                             headers=bearer(seat_token(session, 1)))
        assert_problem(answer, 415, "unsupported_media_type")
    answer = client.post("/v1/sessions", data=b'{"game": "ghostone", "players": 3}',
                         content_type="application/json; charset=utf-8")
    assert answer.status_code == 201, answer.get_json()  # a charset is no other type


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
    ({"game": "ghostone", "players": 3, "state": {}}, 400, "unknown_field"),
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


def test_every_documented_error_answer_has_examples_of_its_own_status(client):
    """Each problem answer of the document shows an example of every code of its status and
    none of another (Swagger UI once showed already_started under 413); a 304 has no body."""
    from jsonschema import Draft202012Validator

    document = client.get("/openapi.json").get_json()
    problem = Draft202012Validator(document["components"]["schemas"]["Problem"])
    answers, codes_shown = 0, set()
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                if status == "304":
                    assert "content" not in answer, (method, path)
                if not status.startswith(("4", "5")):
                    continue
                content = answer["content"]["application/problem+json"]
                assert content["examples"], (method, path, status)
                for code, example in content["examples"].items():
                    value = example["value"]
                    assert value["status"] == int(status) and value["code"] == code, \
                        (method, path, status, code)
                    problem.validate(value)
                    codes_shown.add(code)
                answers += 1
    assert answers >= 250
    assert "unsupported_media_type" in codes_shown and "unknown_field" in codes_shown
