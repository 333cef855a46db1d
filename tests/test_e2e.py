"""End to end: real gunicorn processes for the gateway and every game service,
a real Redis, a whole game over HTTP, and what happens when parts go down."""

import random

import pytest
import requests

from referee.embedded import free_port
from referee.stack import Stack, installed_games
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
    http = requests.Session()
    created = http.post(f"{stack.url}/v1/sessions",
                        json={"game": "ghostone", "players": 4, "seed": 99}, timeout=10)
    assert created.status_code == 201
    session = created.json()
    base = f"{stack.url}/v1/sessions/{session['session_id']}"
    tokens = {s["seat"]: s["token"] for s in session["seats"]}
    for _ in range(500):
        shown = http.get(base, headers=bearer(session["spectator_token"]), timeout=10).json()
        if not shown["to_move"]:
            break
        seat = shown["to_move"][0]
        moves = http.get(f"{base}/legal-moves", headers=bearer(tokens[seat]), timeout=10).json()
        moved = http.post(f"{base}/moves", json={"move": moves["moves"][-1]},
                          headers={**bearer(tokens[seat]), "If-Match": str(shown["version"])},
                          timeout=10)
        assert moved.status_code == 200, moved.text
    score = http.get(f"{base}/score", headers=bearer(tokens[1]), timeout=10).json()
    assert score["final"] and score["winners"]
    assert http.delete(base, headers=bearer(session["table_token"]), timeout=10
                       ).status_code == 204


@pytest.mark.parametrize("game", sorted(installed_games()))
def test_a_whole_session_of_every_game_through_the_gateway(stack, game):
    """Random legal moves, each seat with its own token, until the game ends."""
    http, rnd = requests.Session(), random.Random(game)
    info = http.get(f"{stack.url}/v1/games/{game}", timeout=10).json()
    created = http.post(f"{stack.url}/v1/sessions", json={
        "game": game, "players": info["min_players"], "seed": 5}, timeout=10).json()
    base = f"{stack.url}/v1/sessions/{created['session_id']}"
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    shown = http.get(base, headers=bearer(created["spectator_token"]), timeout=10).json()
    for _ in range(5000):
        if not shown["to_move"]:
            break
        seat = rnd.choice(shown["to_move"])
        moves = http.get(f"{base}/legal-moves", headers=bearer(tokens[seat]), timeout=10).json()
        moved = http.post(f"{base}/moves", json={"move": rnd.choice(moves["moves"])},
                          headers=bearer(tokens[seat]), timeout=10)
        assert moved.status_code == 200, moved.text
        shown = moved.json()
    assert shown["to_move"] == [], f"{game} did not end"
    score = http.get(f"{base}/score", headers=bearer(tokens[1]), timeout=10).json()
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


def test_redis_down_is_503_with_retry_after():
    from referee_gateway import create_app
    app = create_app({"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0",
                      "GAME_SERVICES": {}})
    client = app.test_client()
    answer = client.get("/v1/sessions/abc", headers=bearer("t"))
    assert_problem(answer, 503, "service_unavailable")
    assert answer.headers["Retry-After"]
    assert_problem(client.get("/readyz"), 503, "service_unavailable")
    assert client.get("/healthz").status_code == 200
    assert service_app("ghostone").test_client().get("/healthz").status_code == 200
