"""A gateway worker's limits derive from each other (issue 28, item 3), its Redis probe
decides alone when session commands are refused at once (item 5), and a stream notices
its client's end with a peek (real sockets, a real Redis)."""

import socket

import pytest
import redis
from referee import capacity
from referee.embedded import free_port
from referee.sessions.probe import RedisProbe, StoreDown
from referee.sessions.store import PoolBusy, connect
from referee_gateway.events import peer_closed


def test_the_stream_limit_is_a_share_of_the_worker_connections_and_stays_below_them():
    assert capacity.stream_limit({}) == 1600 < capacity.worker_connections({}) == 2000
    assert capacity.stream_limit({"GUNICORN_WORKER_CONNECTIONS": "40"}) == 32
    assert capacity.stream_limit({"STREAM_MAX_PER_WORKER": "100"}) == 100
    for too_many in ("2000", "2500"):
        with pytest.raises(ValueError, match="must be below"):
            capacity.stream_limit({"STREAM_MAX_PER_WORKER": too_many})


def test_the_gateway_config_and_gunicorn_read_the_same_limits(monkeypatch):
    from referee_gateway import config
    monkeypatch.setenv("GUNICORN_WORKER_CONNECTIONS", "500")
    monkeypatch.delenv("STREAM_MAX_PER_WORKER", raising=False)
    settings = config.from_environment()
    assert settings["STREAM_MAX_PER_WORKER"] == 400
    assert settings["REDIS_MAX_CONNECTIONS"] == capacity.REDIS_MAX_CONNECTIONS


def test_the_pool_waits_for_a_free_connection_and_never_grows_past_its_size(redis_url):
    client = connect(redis_url, max_connections=2, pool_timeout=0.2)
    pool = client.connection_pool
    assert isinstance(pool, redis.BlockingConnectionPool) and pool.max_connections == 2
    held = [pool.get_connection(), pool.get_connection()]
    with pytest.raises(PoolBusy):  # a third waits 0.2 s, then is refused: busy, not down
        pool.get_connection()
    assert issubclass(PoolBusy, redis.ConnectionError)  # every outage handler takes it
    for connection in held:
        pool.release(connection)
    assert client.ping()
    client.close()


def test_commands_are_refused_at_once_after_two_unanswered_probes_and_let_through_after_one(
        redis_url):
    nowhere = connect(f"redis://127.0.0.1:{free_port()}/0", socket_timeout=0.2, retries=0)
    probe = RedisProbe(nowhere, background=False)
    guarded = connect(redis_url)
    probe.guard(guarded)
    assert guarded.ping()  # a fresh probe lets everything through
    assert not probe.probe() and probe.reachable  # one miss: maybe a stall, not an outage
    assert not probe.probe() and not probe.reachable
    assert probe.status()["redis"] == "down" and probe.status()["error"]
    with pytest.raises(StoreDown):
        guarded.ping()  # though this Redis answers: the probe's word decides, at once
    probe.client = connect(redis_url, socket_timeout=0.5, retries=0)
    assert probe.probe() and probe.reachable and guarded.ping()
    assert probe.status() == {"redis": "up"}
    for client in (nowhere, guarded, probe.client):
        client.close()


def test_a_peek_tells_a_client_that_left_from_one_that_is_silent():
    server = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(server.getsockname())
    accepted, _ = server.accept()
    try:
        assert not peer_closed(accepted)  # there, saying nothing: as a stream's client does
        client.sendall(b"x")
        assert not peer_closed(accepted) and accepted.recv(1) == b"x"  # nothing consumed
        client.close()
        assert peer_closed(accepted)
        assert accepted.fileno() >= 0  # the peek let the descriptor be
        assert not peer_closed(None)
    finally:
        accepted.close()
        server.close()
