"""Fixtures with real parts: a real Redis (embedded unless REDIS_URL is set),
each game service on a real HTTP server, the gateway's Flask test client."""

import os
import threading

import pytest
import redis
from werkzeug.serving import WSGIRequestHandler, make_server

from referee.embedded import EmbeddedRedis
from referee.stack import installed_games
from support import service_app


@pytest.fixture(scope="session")
def redis_url():
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    with EmbeddedRedis() as server:
        yield server.url


@pytest.fixture(scope="session")
def redis_client(redis_url):
    return redis.Redis.from_url(redis_url, decode_responses=True)


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


@pytest.fixture(scope="session")
def service_urls():
    servers = {game: ThreadedServer(service_app(game)) for game in installed_games()}
    yield {game: server.url for game, server in servers.items()}
    for server in servers.values():
        server.close()


@pytest.fixture(scope="session")
def gateway_app(redis_url, service_urls):
    from referee_gateway import create_app
    return create_app({"TESTING": True, "REDIS_URL": redis_url,
                       "GAME_SERVICES": dict(service_urls)})


@pytest.fixture
def client(gateway_app):
    return gateway_app.test_client()
