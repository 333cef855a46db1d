"""Helpers shared by the cross-service tests (fixtures live in conftest.py)."""

import threading
from importlib import import_module

from referee.stack import installed_games
from werkzeug.serving import WSGIRequestHandler, make_server


def service_app(game: str):
    """A game service's Flask app, built by its own factory."""
    module, _, _ = installed_games()[game].partition(":")
    return import_module(module).create_app()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create_session(client, game="ghostone", players=3, **extra) -> dict:
    answer = client.post("/v1/sessions", json=dict(game=game, players=players, **extra))
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def seat_token(session: dict, seat: int) -> str:
    return next(s["token"] for s in session["seats"] if s["seat"] == seat)


def assert_problem(answer, status: int, code: str) -> dict:
    assert answer.status_code == status, (answer.status_code, answer.get_data(as_text=True))
    assert answer.mimetype == "application/problem+json"
    body = answer.get_json()
    assert body["status"] == status and body["code"] == code, body
    assert body["title"] and body["type"] and "detail" in body
    return body


def session_url(session: dict, tail: str = "") -> str:
    return f"/v1/sessions/{session['session_id']}{tail}"


def snapshot(redis_client, session: dict) -> tuple:
    """Everything Redis holds for a session: to prove a refused request changed nothing."""
    from referee.sessions import keys
    sid = session["session_id"]
    return (redis_client.get(keys.state(sid)), redis_client.hgetall(keys.meta(sid)),
            redis_client.lrange(keys.log(sid), 0, -1))


def play(client, session: dict, token: str, move: dict, **headers):
    return client.post(session_url(session, "/moves"), json={"move": move},
                       headers={**bearer(token), **headers})


def first_move(client, session: dict, token: str) -> dict:
    answer = client.get(session_url(session, "/legal-moves"), headers=bearer(token))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["moves"][0]


class QuietHandler(WSGIRequestHandler):
    def log_request(self, *args, **kwargs):
        pass


class ThreadedServer:
    """A real HTTP server (werkzeug, threaded) for one Flask app."""

    def __init__(self, app):
        self.server = make_server("127.0.0.1", 0, app, threaded=True,
                                  request_handler=QuietHandler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()


def close_redis(client) -> None:
    """Close a client's sockets; a cluster client's close leaves its nodes' pools open."""
    for node in getattr(client, "get_nodes", list)():
        if node.redis_connection is not None:
            node.redis_connection.connection_pool.disconnect()
    client.close()
