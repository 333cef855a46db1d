"""End to end: real gunicorn processes for the gateway and every game service,
a real Redis, a whole game over HTTP, and what happens when parts go down."""

import random

import pytest
import requests

from referee.embedded import free_port
from referee.stack import Stack, installed_games
from referee_client import NotFound, Referee
from support import assert_problem, bearer, service_app

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def stack(redis_url):
    # Random games fire requests far faster than people: the limiter has its own test.
    with Stack(port=free_port(), workers=1, threads=4, redis_url=redis_url,
               log=lambda line: None,
               env={"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0"}) as running:
        yield running


def test_a_whole_ghostone_session_over_http(stack):
    """Driven by the project's Python client, as a third-party app would: each seat with its
    own token, every move pinned to the version it was chosen on (If-Match)."""
    with Referee(stack.url) as referee:
        table = referee.create("ghostone", players=4, seed=99)
        for _ in range(500):
            to_move = table.spectator.view()["to_move"]
            if not to_move:
                break
            seat = table.seats[to_move[0]]
            seat.view()
            seat.move(seat.legal_moves()[-1], if_match=True)
        score = table.seats[1].score()
        assert score["final"] and score["winners"]
        table.table.delete()
        with pytest.raises(NotFound):
            table.spectator.view()


@pytest.mark.parametrize("game", sorted(installed_games()))
def test_a_whole_session_of_every_game_through_the_gateway(stack, game):
    """Random legal moves, each seat with its own token, until the game ends."""
    rnd = random.Random(game)
    with Referee(stack.url) as referee:
        info = referee.game(game)
        table = referee.create(game, players=info["min_players"], seed=5)
        shown = table.spectator.view()
        for _ in range(5000):
            if not shown["to_move"]:
                break
            seat = table.seats[rnd.choice(shown["to_move"])]
            shown = seat.move(rnd.choice(seat.legal_moves()))
        assert shown["to_move"] == [], f"{game} did not end"
        score = table.seats[1].score()
        assert score["final"] and score["winners"]


def test_every_game_service_is_up_behind_the_gateway(stack):
    games = requests.get(f"{stack.url}/v1/games", timeout=10).json()["games"]
    assert {g["game"] for g in games if g["available"]} == set(stack.service_urls)
    spec = requests.get(f"{stack.url}/openapi.json", timeout=10).json()
    assert "/v1/sessions/{sid}/moves" in spec["paths"]


def test_a_service_down_is_503_with_retry_after(stack):
    created = requests.post(f"{stack.url}/v1/sessions",
                            json={"game": "ghostone", "players": 3}, timeout=10).json()
    process = stack.processes["ghostone"]
    process.terminate()
    process.wait(30)
    answer = requests.get(f"{stack.url}/v1/sessions/{created['session_id']}",
                          headers=bearer(created["spectator_token"]), timeout=10)
    assert answer.status_code == 503 and int(answer.headers["Retry-After"]) > 0
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert answer.json()["code"] == "service_unavailable"


def test_a_busy_store_pool_is_503_saying_the_gateway_is_busy_not_the_store_down(redis_url):
    from referee_gateway import create_app
    app = create_app({"REDIS_URL": redis_url, "GAME_SERVICES": {},
                      "REDIS_MAX_CONNECTIONS": 1, "RATE_LIMIT_PER_MINUTE": 0})
    pool = app.extensions["sessions"].client.connection_pool
    pool.timeout = 0.2  # (the served wait is a second: the same refusal, sooner)
    held = pool.get_connection()  # a reconnect storm holds every connection
    try:
        answer = app.test_client().get("/v1/sessions/abc", headers=bearer("t"))
    finally:
        pool.release(held)
    assert_problem(answer, 503, "service_unavailable")
    assert answer.headers["Retry-After"]
    assert answer.get_json()["detail"].startswith("this gateway is busy"), answer.get_json()
    # the connection back in the pool: the same request reaches the store (no such session)
    assert app.test_client().get("/v1/sessions/abc", headers=bearer("t")).status_code == 404


def test_redis_down_is_503_with_retry_after():
    from referee_gateway import create_app
    app = create_app({"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0",
                      "GAME_SERVICES": {}})
    client = app.test_client()
    answer = client.get("/v1/sessions/abc", headers=bearer("t"))
    assert_problem(answer, 503, "service_unavailable")
    assert answer.headers["Retry-After"]
    probe = app.extensions["redis.probe"]
    while probe.probe():  # until two probes went unanswered (no waiting: nothing listens)
        pass
    probe.probe()
    # degraded, still ready: readiness never takes a replica out for Redis (README)
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.get_json()["status"] == "degraded"
    assert ready.get_json()["redis"] == "down"
    assert client.get("/healthz").status_code == 200
    assert service_app("ghostone").test_client().get("/healthz").status_code == 200
