"""Request ids (issue 18): the gateway keeps a well-formed X-Request-Id or makes one,
passes it to the game service, answers it on every response and puts it in every
problem+json body; one id leads from the answer to the gateway's and the service's log."""

import json
import os
import re
import subprocess
import sys

import pytest
import requests
from referee.embedded import free_port
from referee.stack import wait_ready
from support import assert_problem, bearer, create_session, session_url

HEADER = "X-Request-Id"
MADE = re.compile(r"[0-9a-f]{32}")


def test_the_gateway_makes_an_id_when_none_is_sent(client):
    ids = [client.get("/healthz").headers[HEADER] for _ in range(3)]
    assert all(MADE.fullmatch(i) for i in ids) and len(set(ids)) == 3


@pytest.mark.parametrize("sent", ["3f1c2a9e-0d4b-4c55-9a7e-5d1c9f0b8a21", "web.7fa3:21:04",
                                  "A" * 128])
def test_a_well_formed_id_is_kept(client, sent):
    assert client.get("/healthz", headers={HEADER: sent}).headers[HEADER] == sent


@pytest.mark.parametrize("sent", ["short", "A" * 129, "has spaces in it", "quote\"d-12345",
                                  "-starts-with-a-dash", "ünïcode-12345", "a/b/c/d/e/f"])
def test_a_malformed_id_is_replaced_never_refused(client, sent):
    answer = client.get("/healthz", headers={HEADER: sent})
    assert answer.status_code == 200
    assert MADE.fullmatch(answer.headers[HEADER])


def problems(client):
    """Requests that fail in every way the gateway can answer, each with its code."""
    session = create_session(client)
    table, seat2 = session["table_token"], session["seats"][1]["token"]
    move = client.get(session_url(session, "/legal-moves"),
                      headers=bearer(session["seats"][0]["token"])).get_json()["moves"][0]
    return [
        (lambda: client.post("/v1/games/ghostone/new", data="{",
                             content_type="application/json"), 400, "invalid_json"),
        (lambda: client.get("/v1/nowhere"), 404, "not_found"),
        (lambda: client.put("/v1/games"), 405, "method_not_allowed"),
        (lambda: client.get("/v1/games/chess"), 404, "unknown_game"),
        (lambda: client.get("/v1/sessions/nosuchsession", headers=bearer(table)), 404,
         "unknown_session"),
        (lambda: client.get(session_url(session)), 401, "unauthorized"),
        (lambda: client.post(session_url(session, "/moves"), json={"move": move},
                             headers=bearer(seat2)), 403, "forbidden"),
        (lambda: client.post("/v1/games/ghostone/new", json={"players": 9}), 422,
         "invalid_players"),  # a game service's problem, passed through
        (lambda: client.post(session_url(session, "/moves"), json={"move": move},
                             headers={**bearer(session["seats"][0]["token"]),
                                      "If-Match": '"7"'}), 412, "version_conflict"),
    ]


def test_every_problem_body_carries_the_request_id(client):
    for send, status, code in problems(client):
        answer = send()
        body = assert_problem(answer, status, code)
        assert body["request_id"] == answer.headers[HEADER], code


def test_a_rate_limited_or_unavailable_answer_carries_it_too(redis_url, service_urls):
    from referee_gateway import create_app
    limited = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATE_LIMIT_PER_MINUTE": 1,
                          "GAME_SERVICES": dict(service_urls)}).test_client()
    sent = {**bearer("one-caller"), HEADER: "limited-0001"}
    answers = [limited.get("/v1/sessions/x", headers=sent) for _ in range(3)]
    refused = [a for a in answers if a.status_code == 429]
    assert refused and all(a.get_json()["request_id"] == "limited-0001" for a in refused)
    down = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATE_LIMIT_PER_MINUTE": 0,
                       "GAME_SERVICES": {"ghostone": f"http://127.0.0.1:{free_port()}"}})
    answer = down.test_client().get("/v1/games/ghostone", headers={HEADER: "down-000001"})
    assert assert_problem(answer, 503, "service_unavailable")["request_id"] == "down-000001"


def test_browsers_may_read_and_send_the_id(client):
    origin = {"Origin": "https://app.example"}
    answer = client.get("/v1/games/ghostone/info", headers=origin)
    assert HEADER.lower() in answer.headers["Access-Control-Expose-Headers"].lower()
    preflight = client.options("/v1/sessions", headers={
        **origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, x-request-id"})
    assert HEADER.lower() in preflight.headers["Access-Control-Allow-Headers"].lower()


# ------------------------------------------------------------ end to end, in the logs
def serve(app: str, log_path, env: dict) -> tuple[str, subprocess.Popen]:
    """One gunicorn server as the image runs it, its stderr (the log) kept in a file."""
    port = free_port()
    with open(log_path, "w") as log_file:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:referee.gunicorn_conf",
             "-b", f"127.0.0.1:{port}", app], stderr=log_file, stdout=log_file,
            env={**os.environ, "WEB_CONCURRENCY": "1", "LOG_LEVEL": "info",
                 "METRICS_PORT": "0", **env})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, process)
    except RuntimeError:
        process.kill()
        raise
    return url, process


def lines(path) -> list[dict]:
    """Every line of a server's log: each one a JSON object, or the test fails."""
    found = []
    for line in path.read_text().splitlines():
        record = json.loads(line)
        assert {"time", "level", "logger", "message"} <= set(record), line
        found.append(record)
    return found


@pytest.mark.e2e
def test_one_id_from_the_answer_to_the_gateways_and_the_services_log_lines(redis_url,
                                                                           tmp_path):
    service_url, service = serve("ghostone.service:create_app()", tmp_path / "ghostone.log",
                                 {})
    gateway_url, gateway = serve("referee_gateway:create_app()", tmp_path / "gateway.log", {
        "REDIS_URL": redis_url, "GAME_SERVICES": f"ghostone={service_url}",
        "GUNICORN_WORKER_CLASS": "gevent", "RATE_LIMIT_PER_MINUTE": "0"})
    try:
        created = requests.post(f"{gateway_url}/v1/sessions", json={
            "game": "ghostone", "players": 3, "seed": 4}, timeout=10)
        made = created.headers[HEADER]
        session = created.json()
        refused = requests.post(f"{gateway_url}/v1/sessions/{session['session_id']}/moves",
                                json={"move": {"type": "place", "plate": "b2",
                                               "rocks": ["d4", "a1", "c4"]}},
                                headers={**bearer(session["seats"][0]["token"]),
                                         HEADER: "player-21:04-my-move"}, timeout=10)
    finally:
        for process in (gateway, service):
            process.terminate()
            process.wait(30)
    assert created.status_code == 201 and MADE.fullmatch(made)
    assert refused.status_code == 422 and refused.headers[HEADER] == "player-21:04-my-move"
    assert refused.json()["request_id"] == "player-21:04-my-move"
    gateway_lines, service_lines = lines(tmp_path / "gateway.log"), lines(
        tmp_path / "ghostone.log")
    for request_id, route, status, upstream, upstream_status in [
            (made, "/v1/sessions", 201, "/v1/new", 200),
            ("player-21:04-my-move", "/v1/sessions/<sid>/moves", 422, "/v1/apply", 422)]:
        at_gateway = [r for r in gateway_lines if r.get("request_id") == request_id
                      and r["logger"] == "referee.access"]
        at_service = [r for r in service_lines if r.get("request_id") == request_id
                      and r["logger"] == "referee.access"]
        assert len(at_gateway) == 1 and len(at_service) == 1, (at_gateway, at_service)
        line = at_gateway[0]
        assert (line["route"], line["status"], line["game"]) == (route, status, "ghostone")
        assert line["session_id"] == session["session_id"] and line["duration_ms"] >= 0
        assert (at_service[0]["route"], at_service[0]["status"]) == (upstream, upstream_status)
    assert at_gateway[0]["code"] == at_service[0]["code"] == "illegal_move"
    assert at_gateway[0]["rule"] == at_service[0]["rule"] == "G-2.3"
    assert any(r["logger"] == "gunicorn.error" for r in gateway_lines)  # gunicorn's own: JSON
