"""Every answer to an upstream failure names the game, never an internal address.

A game service that refuses connections, cannot be resolved, crashes with a 500 that
quotes its own internals, answers something that is not JSON, or is too slow: the
caller gets a 503 problem with Retry-After, and nothing in it (body or headers) says
where the service lives.
"""

import time

import pytest
from flask import Flask, Response

from support import ThreadedServer, assert_problem, bearer

LEAKY = "10.9.8.7:6543"  # what a crashing service might print about itself


def misbehaving_service(kind: str) -> Flask:
    app = Flask(f"misbehaving_{kind}")

    @app.route("/<path:anything>", methods=["GET", "POST"])
    def answer(anything):
        if kind == "crash":
            return Response(f"Traceback: worker at http://{LEAKY}/ failed", 500)
        if kind == "garbage":
            return Response(f"<html>proxy http://{LEAKY}</html>", 200, mimetype="text/html")
        time.sleep(1.5)  # slow: past the gateway's read timeout
        return Response("{}", 200, mimetype="application/json")

    return app


@pytest.fixture(scope="module")
def failing_services():
    servers = {kind: ThreadedServer(misbehaving_service(kind))
               for kind in ("crash", "garbage", "slow")}
    closed = ThreadedServer(Flask("closed"))
    closed_url = closed.url
    closed.close()
    closed.server.server_close()  # nothing listens there any more
    urls = {f"{kind}": server.url for kind, server in servers.items()}
    urls["refused"] = closed_url
    urls["unresolvable"] = "http://ghostone.internal.invalid:8101"
    yield urls
    for server in servers.values():
        server.close()


REQUESTS = [
    ("GET", "/v1/games/{game}", None),
    ("POST", "/v1/games/{game}/legal-moves", {"state": {}}),
    ("POST", "/v1/sessions", {"game": "{game}", "players": 3}),
]


@pytest.mark.parametrize("method,path,body", REQUESTS)
@pytest.mark.parametrize("kind", ["refused", "unresolvable", "crash", "garbage", "slow"])
def test_upstream_failure_is_503_naming_the_game_only(redis_url, failing_services, kind,
                                                      method, path, body):
    from referee_gateway import create_app
    url = failing_services[kind]
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATE_LIMIT_PER_MINUTE": 0,
                      "GAME_SERVICES": {kind: url}, "UPSTREAM_READ_TIMEOUT": 0.5})
    client = app.test_client()
    path = path.format(game=kind)
    if body and body.get("game"):
        body = dict(body, game=kind)
    answer = client.open(path, method=method, json=body)
    problem = assert_problem(answer, 503, "service_unavailable")
    assert int(answer.headers["Retry-After"]) > 0
    assert kind in problem["detail"]
    text = answer.get_data(as_text=True) + str(dict(answer.headers))
    host_port = url.split("//", 1)[1]
    for secret in (host_port, host_port.split(":")[0], host_port.rsplit(":", 1)[1], LEAKY,
                   "http://", "internal.invalid", "127.0.0.1"):
        assert secret not in text, f"{kind}: the answer names {secret!r}: {text}"


def test_the_game_list_marks_a_failing_game_unavailable_without_its_address(
        redis_url, failing_services):
    from referee_gateway import create_app
    app = create_app({"TESTING": True, "REDIS_URL": redis_url,
                      "GAME_SERVICES": {"crash": failing_services["crash"]}})
    answer = app.test_client().get("/v1/games", headers=bearer("x"))
    assert answer.get_json() == {"games": [{"game": "crash", "available": False}]}


def test_a_service_slower_than_the_connect_timeout_but_within_the_read_timeout_answers(
        redis_url):
    """The two timeouts are the connect's and the read's, each in its place: an answer that
    takes longer than the connect timeout (but not the read timeout) still arrives."""
    from referee_gateway import create_app
    slow = Flask("slow_but_in_time")

    @slow.get("/v1/info")
    def info():
        time.sleep(0.6)
        return {"game": "ghostone"}

    server = ThreadedServer(slow)
    try:
        app = create_app({"TESTING": True, "REDIS_URL": redis_url,
                          "GAME_SERVICES": {"ghostone": server.url},
                          "UPSTREAM_CONNECT_TIMEOUT": 0.2, "UPSTREAM_READ_TIMEOUT": 5})
        try:
            answer = app.test_client().get("/v1/games/ghostone")
            assert answer.status_code == 200, answer.get_data(as_text=True)
        finally:
            app.extensions["upstream"].close()
    finally:
        server.close()
