"""Issue 27.3: limits that hold. An unknown or malformed token is limited by the caller's
address, not by its text; a known token by its session and seat. The address is read once,
through TRUSTED_PROXY_HOPS: behind one proxy each caller is its own, with none a forged
X-Forwarded-For changes nothing. Real Redis, real game services."""

import secrets
import time

import pytest
import requests

from support import assert_problem, bearer, create_session, seat_token, session_url


@pytest.fixture
def gateway(store, service_urls):
    """A gateway with the given limits (the session fixture's gateway has none)."""
    from referee_gateway import create_app
    url, cluster = store
    made = []

    def make(**settings):
        fresh_window()
        app = create_app({"TESTING": True, "REDIS_URL": url, "REDIS_CLUSTER": cluster,
                          "GAME_SERVICES": dict(service_urls), **settings})
        made.append(app)
        return app.test_client()

    yield make
    for app in made:
        app.extensions["upstream"].close()


def fresh_window(least: float = 20.0) -> None:
    """Wait for the next window when fewer than ``least`` seconds are left in this one: the
    limits count in fixed windows of a minute (limits.WINDOW, lobby.FAILURE_WINDOW), and a test's requests must all fall in
    one (on a busy machine forty requests once straddled two, and the last ten were let
    through by the new window's allowance)."""
    from referee_gateway.limits import WINDOW
    from referee_gateway.lobby import FAILURE_WINDOW
    assert WINDOW == FAILURE_WINDOW
    left = WINDOW - time.time() % WINDOW
    if left < least:
        time.sleep(left + 0.05)


def address() -> str:
    """An address of its own for each test (the counters live in one Redis per run)."""
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def test_forty_made_up_bearer_strings_meet_the_limit_of_their_address(gateway, client):
    limited = gateway(RATE_LIMIT_PER_MINUTE=30)
    session = create_session(client)
    caller = {"REMOTE_ADDR": address()}
    answers = [limited.get(session_url(session), environ_base=caller,
                           headers=bearer(secrets.token_urlsafe(24))) for _ in range(20)]
    answers += [limited.get("/v1/games/ghostone", environ_base=caller,
                            headers={"Authorization": f"Bearer {secrets.token_hex(8)} x"})
                for _ in range(10)]
    answers += [limited.get(session_url(session), environ_base=caller,
                            headers={"Authorization": f"Basic {secrets.token_hex(8)}"})
                for _ in range(10)]
    statuses = [a.status_code for a in answers]
    assert statuses[:20] == [401] * 20 and statuses[20:30] == [200] * 10
    assert statuses[30:] == [429] * 10, "a fresh made-up token is no fresh allowance"
    assert_problem(answers[-1], 429, "rate_limited")
    # another address is another caller
    assert limited.get("/v1/games/ghostone", environ_base={"REMOTE_ADDR": address()}
                       ).status_code == 200


def test_a_known_token_is_counted_as_its_session_and_seat_wherever_it_calls_from(gateway,
                                                                                 client):
    limited = gateway(RATE_LIMIT_PER_MINUTE=5)
    session = create_session(client)
    first, second = address(), address()
    mine = bearer(seat_token(session, 1))
    statuses = [limited.get(session_url(session), headers=mine,
                            environ_base={"REMOTE_ADDR": where}).status_code
                for where in (first, second) * 3]
    assert statuses == [200] * 5 + [429], "one seat, one allowance, from any address"
    assert limited.get(session_url(session), headers=bearer(seat_token(session, 2)),
                       environ_base={"REMOTE_ADDR": first}).status_code == 200
    # the seat's requests were not its address's: that address has its own allowance left
    assert limited.get("/v1/games/ghostone", environ_base={"REMOTE_ADDR": first}
                       ).status_code == 200
    # a seat token sent to another session is unknown there: counted by its address
    other = create_session(client)
    assert [limited.get(session_url(other), headers=mine, environ_base={
        "REMOTE_ADDR": second}).status_code for _ in range(6)] == [401] * 5 + [429]


def join(client, code, *, via, forwarded=None):
    headers = {"X-Forwarded-For": forwarded} if forwarded else {}
    return client.post("/v1/sessions/join", json={"code": code},
                       environ_base={"REMOTE_ADDR": via}, headers=headers)


def test_behind_one_proxy_one_address_bad_codes_never_block_another(gateway):
    behind = gateway(TRUSTED_PROXY_HOPS=1, RATE_LIMIT_PER_MINUTE=0, JOIN_FAILURES_PER_MINUTE=3)
    table = create_session(behind, game="gematon", players=2, seats="open")
    ingress, guesser, player = address(), address(), address()
    for guess in ("AAAA-AAAA", "BBBB-BBBB", "CCCC-CCCC"):
        assert_problem(join(behind, guess, via=ingress, forwarded=guesser), 404,
                       "unknown_join_code")
    assert_problem(join(behind, "DDDD-DDDD", via=ingress, forwarded=guesser), 429,
                   "rate_limited")
    # the guesser's own X-Forwarded-For is left of what the ingress appended: not read
    assert_problem(join(behind, "EEEE-EEEE", via=ingress, forwarded=f"{player}, {guesser}"),
                   429, "rate_limited")
    assert join(behind, table["join_code"], via=ingress, forwarded=player).status_code == 201


def test_behind_one_proxy_each_forwarded_address_has_its_own_rate_limit(gateway):
    behind = gateway(TRUSTED_PROXY_HOPS=1, RATE_LIMIT_PER_MINUTE=3)
    ingress, busy, calm = address(), address(), address()

    def games(forwarded):
        return behind.get("/v1/games", environ_base={"REMOTE_ADDR": ingress},
                          headers={"X-Forwarded-For": forwarded}).status_code

    assert [games(busy) for _ in range(4)] == [200, 200, 200, 429]
    assert games(calm) == 200


def test_without_trusted_proxies_a_forged_x_forwarded_for_changes_nothing(gateway):
    direct = gateway(RATE_LIMIT_PER_MINUTE=0, JOIN_FAILURES_PER_MINUTE=3)
    table = create_session(direct, game="gematon", players=2, seats="open")
    guesser, player = address(), address()
    for number in range(3):  # a new forged address each time: still the one guesser
        assert_problem(join(direct, "AAAA-AAAA", via=guesser, forwarded=address()), 404,
                       "unknown_join_code")
    assert_problem(join(direct, table["join_code"], via=guesser, forwarded=player), 429,
                   "rate_limited")
    # and nobody is blocked by naming the guesser's address
    assert join(direct, table["join_code"], via=player, forwarded=guesser).status_code == 201


def test_trusted_proxy_hops_come_from_the_environment_and_default_to_none(monkeypatch):
    from referee_gateway import config
    monkeypatch.delenv("TRUSTED_PROXY_HOPS", raising=False)
    assert config.from_environment()["TRUSTED_PROXY_HOPS"] == 0
    monkeypatch.setenv("TRUSTED_PROXY_HOPS", "1")
    assert config.from_environment()["TRUSTED_PROXY_HOPS"] == 1


@pytest.mark.e2e
def test_under_gunicorn_the_forwarded_address_is_the_limits_and_the_access_lines(
        redis_url, service_urls, tmp_path):
    """A real gunicorn gateway (gevent, as deployed) behind one trusted proxy: the limit and
    gunicorn's own access lines read the address the proxy forwarded, never the socket's."""
    from test_request_ids import lines, serve
    url, gateway = serve("referee_gateway:create_app()", tmp_path / "gateway.log", {
        "REDIS_URL": redis_url, "GAME_SERVICES": f"ghostone={service_urls['ghostone']}",
        "GUNICORN_WORKER_CLASS": "gevent", "TRUSTED_PROXY_HOPS": "1",
        "RATE_LIMIT_PER_MINUTE": "3", "ACCESS_LOG": "-"})
    busy, calm = "203.0.113.1", "198.51.100.7"
    try:
        statuses = [requests.get(f"{url}/v1/games", timeout=10, headers={
            "X-Forwarded-For": f"{calm}, {busy}"}).status_code for _ in range(4)]
        other = requests.get(f"{url}/v1/games", timeout=10, headers={"X-Forwarded-For": calm})
    finally:
        gateway.terminate()
        gateway.wait(30)
    assert statuses == [200, 200, 200, 429] and other.status_code == 200
    access = [r["message"] for r in lines(tmp_path / "gateway.log")
              if r["logger"] == "gunicorn.access" and "GET /v1/games " in r["message"]]
    assert len(access) == 5, access  # (the readiness probe, sent without a proxy, is not)
    assert sum(m.startswith(f"{busy} ") for m in access) == 4, access
    assert sum(m.startswith(f"{calm} ") for m in access) == 1, access
