"""Fixtures with real parts: a real Redis (embedded unless REDIS_URL is set),
each game service on a real HTTP server, the gateway's Flask test client."""

import os

import pytest
from referee.embedded import EmbeddedCluster, EmbeddedRedis, free_port
from referee.sessions.store import connect
from referee.stack import Stack, installed_games
from support import ThreadedServer, close_redis, service_app


@pytest.fixture(scope="session")
def redis_url():
    """A standalone Redis: REDIS_URL, or an embedded server."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    with EmbeddedRedis() as server:
        yield server.url


@pytest.fixture(scope="session")
def redis_cluster_url():
    """A real Redis Cluster of three masters, from the same redis-server binary."""
    with EmbeddedCluster(masters=3) as cluster:
        yield cluster.url


@pytest.fixture(scope="session", params=["standalone", "cluster"])
def store(request):
    """Where the gateway keeps sessions: every session test runs on both."""
    if request.param == "cluster":
        return request.getfixturevalue("redis_cluster_url"), True
    return request.getfixturevalue("redis_url"), False


@pytest.fixture(scope="session")
def redis_client(store):
    url, cluster = store
    client = connect(url, cluster=cluster)
    yield client
    close_redis(client)


@pytest.fixture(scope="session")
def service_urls():
    servers = {game: ThreadedServer(service_app(game)) for game in installed_games()}
    yield {game: server.url for game, server in servers.items()}
    for server in servers.values():
        server.close()


@pytest.fixture(scope="session")
def gateway_app(store, service_urls):
    from referee_gateway import create_app
    url, cluster = store
    app = create_app({"TESTING": True, "REDIS_URL": url, "REDIS_CLUSTER": cluster,
                      "GAME_SERVICES": dict(service_urls)})
    yield app
    app.extensions["redis.probe"].stop()
    bell = app.extensions["doorbell"]  # a stream read through the test client started it
    bell.close()
    if bell.thread is not None:
        bell.thread.join(10)  # it sees the close within its 1 s read, before Redis goes
    # close the connections before the servers they go to stop (no unclosed sockets)
    app.extensions["upstream"].close()
    close_redis(app.extensions["sessions"].client)


@pytest.fixture
def client(gateway_app):
    return gateway_app.test_client()


@pytest.fixture(scope="module")
def live_stack(redis_url):
    """The whole stack as it runs (gunicorn, every game) on a free port, without the rate
    limit: what the generated clients and the TypeScript client are tried against."""
    with Stack(port=free_port(), workers=1, threads=4, redis_url=redis_url,
               log=lambda line: None,
               env={"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0"}) as running:
        yield running
