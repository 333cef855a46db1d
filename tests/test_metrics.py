"""Prometheus metrics (issue 18): the counters move by exactly what was played, in every
game; /metrics answers on the metrics port only; the workers of a gunicorn server add up;
promtool accepts the exposition; no label carries a session id or a token."""

import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from flask import request
from prometheus_client.parser import text_string_to_metric_families
from referee import gunicorn_conf, metrics, series
from referee.embedded import free_port
from referee.stack import Stack, installed_games
from support import assert_problem, bearer, session_url

METRICS_PORT = "http://localhost:9100"  # the test client's base URL for the metrics port
GAMES = sorted(installed_games())
PROMTOOL = shutil.which("promtool")
NO_PROMTOOL = "promtool is missing (apt-get install prometheus; make test installs it)"


def gateway_without_limit(redis_url, service_urls):
    """A gateway without a rate limit: whole games are played far faster than people play."""
    from referee_gateway import create_app
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATE_LIMIT_PER_MINUTE": 0,
                      "GAME_SERVICES": dict(service_urls)})
    return app.test_client()


@pytest.fixture(scope="module")
def unlimited(redis_url, service_urls):
    return gateway_without_limit(redis_url, service_urls)


def scrape(client) -> list:
    """Every sample of the metrics port's exposition."""
    answer = client.get("/metrics", base_url=METRICS_PORT)
    assert answer.status_code == 200 and answer.mimetype == "text/plain"
    return [s for family in text_string_to_metric_families(answer.get_data(as_text=True))
            for s in family.samples]


def total(samples, name, **labels) -> float:
    return sum(s.value for s in samples if s.name == name
               and all(s.labels.get(k) == v for k, v in labels.items()))


def play_a_whole_game(client, game: str, seed: int) -> dict:
    """A session of ``game`` played to its end with random legal moves, each seat with its
    own token, plus one move refused for being out of turn. What was done, counted."""
    rnd = random.Random(f"{game}/{seed}")
    info = client.get(f"/v1/games/{game}").get_json()
    created = client.post("/v1/sessions", json={"game": game, "seed": seed,
                                                "players": info["min_players"]})
    assert created.status_code == 201, created.get_json()
    session = created.get_json()
    tokens = {s["seat"]: s["token"] for s in session["seats"]}
    played = {"session": session, "moves": 0, "refused": 0, "ids": [created.headers[
        "X-Request-Id"]], "tokens": [*tokens.values(), session["table_token"],
                                     session["spectator_token"]]}
    shown = {"to_move": session["view"]["to_move"]}
    while shown["to_move"]:
        seat = rnd.choice(shown["to_move"])
        listed = client.get(session_url(session, "/legal-moves"), headers=bearer(tokens[seat]))
        move = rnd.choice(listed.get_json()["moves"])
        if not played["refused"] and len(tokens) > 1:
            idle = next(s for s in tokens if s not in shown["to_move"])
            refused = client.post(session_url(session, "/moves"), json={"move": dict(
                move, seat=idle)}, headers=bearer(tokens[idle]))
            assert_problem(refused, 403, "not_your_turn")
            played["refused"] += 1
            played["ids"].append(refused.headers["X-Request-Id"])
        moved = client.post(session_url(session, "/moves"), json={"move": move},
                            headers=bearer(tokens[seat]))
        assert moved.status_code == 200, moved.get_json()
        played["moves"] += 1
        played["ids"] += [listed.headers["X-Request-Id"], moved.headers["X-Request-Id"]]
        shown = moved.get_json()
    return played


def test_counters_move_by_exactly_what_was_played_in_every_game(unlimited):
    before = scrape(unlimited)
    games = {game: play_a_whole_game(unlimited, game, seed=7) for game in GAMES}
    after = scrape(unlimited)

    def moved(name, **labels):
        return total(after, name, **labels) - total(before, name, **labels)

    moves_route = "/v1/sessions/<sid>/moves"
    for game, played in games.items():
        assert played["moves"] > 0 and played["refused"] == 1
        n, mode = played["moves"], "digital"
        assert moved("referee_session_moves_total", game=game, mode=mode) == n, game
        assert moved("referee_moves_applied_total", game=game, mode=mode) == n, game
        gateway = {"service": "gateway", "game": game}
        assert moved("referee_http_requests_total", route=moves_route, status="200",
                     method="POST", **gateway) == n
        assert moved("referee_http_requests_total", route=moves_route, status="403",
                     **gateway) == 1
        assert moved("referee_http_request_duration_seconds_count", route=moves_route,
                     **gateway) == n + 1
        assert moved("referee_http_requests_total", route="/v1/sessions/<sid>/legal-moves",
                     status="200", **gateway) == n
        assert moved("referee_http_requests_total", route="/v1/sessions", status="201",
                     **gateway) == 1
        assert moved("referee_refusals_total", code="not_your_turn", **gateway) == 1
        assert moved("referee_refusals_total", **gateway) == 1
        service = {"service": game, "game": game}
        assert moved("referee_http_requests_total", route="/v1/apply", status="200",
                     **service) == n
        assert moved("referee_refusals_total", code="not_your_turn", **service) == 1
        assert moved("referee_upstream_request_duration_seconds_count", game=game) == \
            moved("referee_http_requests_total", service=game)
    assert moved("referee_upstream_failures_total") == 0
    assert moved("referee_redis_errors_total") == 0
    assert moved("referee_redis_command_duration_seconds_count", command="EVALSHA") > 0
    exposition = unlimited.get("/metrics", base_url=METRICS_PORT).get_data(as_text=True)
    for played in games.values():  # bounded labels: never an id or a token
        for secret in [played["session"]["session_id"], *played["tokens"], *played["ids"]]:
            assert secret not in exposition


def test_route_labels_are_rule_templates_without_converters():
    from referee.observability import route_of
    assert route_of("/v1/sessions/<session_id:sid>/moves") == "/v1/sessions/<sid>/moves"
    assert route_of("/v1/games/<game>") == "/v1/games/<game>"
    assert route_of("/docs/assets/<path:name>") == "/docs/assets/<name>"


def test_metrics_are_served_on_the_metrics_port_only(unlimited):
    assert_problem(unlimited.get("/metrics"), 404, "not_found")
    elsewhere = unlimited.get("/v1/games", base_url=METRICS_PORT)
    assert elsewhere.status_code == 404 and b"only /metrics" in elsewhere.data
    before = scrape(unlimited)
    after = scrape(unlimited)  # a scrape is neither counted nor logged
    assert total(after, "referee_http_requests_total") == \
        total(before, "referee_http_requests_total")


def probed(client):
    """The gateway's Redis probe, once more now (it runs each second in the background)."""
    return client.application.extensions["redis.probe"].probe()


def test_live_sessions_count_what_was_created_and_not_deleted(unlimited):
    def live():
        probed(unlimited)  # the count a scrape shows is the probe's
        return total(scrape(unlimited), "referee_sessions_live")

    before = live()
    created = [unlimited.post("/v1/sessions", json={"game": "ghostone", "players": 3})
               .get_json() for _ in range(3)]
    assert live() == before + 3
    ended = unlimited.delete(session_url(created[0]), headers=bearer(created[0]["table_token"]))
    assert ended.status_code == 204
    assert live() == before + 2
    assert total(scrape(unlimited), "referee_redis_up") == 1


def test_redis_errors_are_counted_and_redis_up_drops_to_zero(service_urls):
    from referee_gateway import create_app
    nowhere = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    client = create_app({"TESTING": True, "REDIS_URL": nowhere, "RATE_LIMIT_PER_MINUTE": 0,
                         "REDIS_PROBE_SECONDS": 3600,  # this test probes by hand
                         "GAME_SERVICES": dict(service_urls)}).test_client()
    before = scrape(client)
    answer = client.post("/v1/sessions", json={"game": "ghostone", "players": 3})
    assert_problem(answer, 503, "service_unavailable")
    assert not probed(client) and not probed(client)  # two probes unanswered: down
    after = scrape(client)
    assert total(after, "referee_redis_errors_total", command="EVALSHA",
                 error="ConnectionError") - total(before, "referee_redis_errors_total",
                                                  command="EVALSHA",
                                                  error="ConnectionError") == 1
    assert total(after, "referee_redis_up") == 0
    assert total(after, "referee_redis_probe_failures_total") - total(
        before, "referee_redis_probe_failures_total") >= 2
    assert not [s for s in after if s.name == "referee_sessions_live"]
    # known down: a session route is refused without asking Redis (StoreDown)
    assert_problem(client.get("/v1/sessions/abc", headers=bearer("t")), 503,
                   "service_unavailable")
    assert total(scrape(client), "referee_redis_errors_total", error="StoreDown") >= 1


def test_rate_limit_hits_are_counted(redis_url, service_urls):
    from referee_gateway import create_app
    client = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATE_LIMIT_PER_MINUTE": 2,
                         "GAME_SERVICES": dict(service_urls)}).test_client()
    before = scrape(client)
    limited = 0
    for _ in range(8):  # a minute's window may turn over meanwhile: count what happened
        answer = client.get("/v1/sessions/nosuchsession", headers=bearer("a-token-of-mine"))
        limited += answer.status_code == 429
    assert limited >= 2
    after = scrape(client)
    route = {"route": "/v1/sessions/<sid>"}
    assert total(after, "referee_rate_limit_hits_total", **route) - \
        total(before, "referee_rate_limit_hits_total", **route) == limited
    assert total(after, "referee_refusals_total", code="rate_limited") - \
        total(before, "referee_refusals_total", code="rate_limited") == limited


def test_upstream_failures_are_counted_by_game_and_reason(redis_url):
    from referee_gateway import create_app
    closed = f"http://127.0.0.1:{free_port()}"  # a game service that is down
    client = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATE_LIMIT_PER_MINUTE": 0,
                         "GAME_SERVICES": {"ghostone": closed}}).test_client()
    labels = {"game": "ghostone", "reason": "ConnectionError"}
    before = total(scrape(client), "referee_upstream_failures_total", **labels)
    for _ in range(2):
        assert_problem(client.get("/v1/games/ghostone"), 503, "service_unavailable")
    assert_problem(client.get("/v1/games/no-such-game"), 404, "unknown_game")
    after = scrape(client)
    assert total(after, "referee_upstream_failures_total", **labels) - before == 2
    assert not [s for s in after if s.labels.get("game") == "no-such-game"]


def test_open_event_streams_are_counted_while_open(unlimited):
    session = unlimited.post("/v1/sessions", json={"game": "ghostone", "players": 3}
                             ).get_json()
    labels = {"game": "ghostone"}
    before = total(scrape(unlimited), "referee_event_streams_open", **labels)
    stream = unlimited.get(session_url(session, "/events"), buffered=False,
                           headers=bearer(session["spectator_token"]))
    assert stream.status_code == 200
    chunks = stream.response
    next(chunks), next(chunks)  # retry:, then the state event: the stream waits now
    assert total(scrape(unlimited), "referee_event_streams_open", **labels) == before + 1
    stream.close()
    assert total(scrape(unlimited), "referee_event_streams_open", **labels) == before


def test_bot_decisions_are_counted_per_game():
    """A game service's bot route (referee.bots) counts one decision per move it answers."""
    from flask import Flask
    from referee import observability
    from referee.errors import BadRequest
    from referee.registry import engines

    app = Flask("a_game_with_a_bot")
    observability.install(app, "ghostone", type(engines()["ghostone"])())  # its own engine

    @app.post(observability.BOT_MOVE)
    def bot_move():
        if not request.get_json().get("view"):
            raise BadRequest("send the seat's view")
        return {"move": {"type": "pass"}}

    app.register_error_handler(BadRequest, lambda e: ({"code": e.code}, 400))
    client = app.test_client()

    def decided():
        metrics.WRITES.flush()  # a request's writes wait for the next batch, as a scrape does
        return metrics.BOT_DECISIONS.labels("ghostone")._value.get()

    before = decided()
    assert client.post(observability.BOT_MOVE, json={"view": {"x": 1}}).status_code == 200
    assert client.post(observability.BOT_MOVE, json={}).status_code == 400
    assert decided() == before + 1
    metrics.bot_decided("ghostone")  # the helper a bot elsewhere calls
    assert decided() == before + 2


def test_the_gunicorn_master_empties_the_metrics_directory(tmp_path, monkeypatch):
    (tmp_path / "counter_999999.db").write_bytes(b"a dead run's counts")
    (tmp_path / "keep.txt").write_text("not prometheus_client's")
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    gunicorn_conf.fresh_metrics_directory()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


@pytest.mark.e2e
def test_the_workers_of_a_gunicorn_server_add_up(redis_url):
    """Two gunicorn workers per server: /metrics on the metrics port sums them all."""
    with Stack(port=free_port(), workers=2, threads=2, redis_url=redis_url,
               log=lambda line: None,
               env={"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0"}) as stack:
        sent = 40
        for _ in range(sent):  # a new connection each: the kernel spreads them over workers
            assert requests.get(f"{stack.url}/v1/games/ghostone", timeout=10).status_code == 200
        assert requests.get(f"{stack.url}/metrics", timeout=10).status_code == 404
        # a worker makes its writes in batches, at most 0.1 s late: the scrape (by another
        # worker, maybe) sees them all soon
        deadline = time.monotonic() + 10
        while True:
            gateway = requests.get(stack.metrics_urls["gateway"], timeout=10)
            ghostone = requests.get(stack.metrics_urls["ghostone"], timeout=10)
            samples, served = ([s for family in text_string_to_metric_families(answer.text)
                                for s in family.samples] for answer in (gateway, ghostone))
            counted = (total(samples, "referee_http_requests_total", service="gateway",
                             route="/v1/games/<game>", game="ghostone", status="200"),
                       total(served, "referee_http_requests_total", service="ghostone",
                             route="/v1/info"))
            if counted == (sent, sent) or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        files = list(Path(stack.scratch.name, "gateway").glob("*.db"))
        pids = {f.stem.rsplit("_", 1)[-1] for f in files}
    assert counted == (sent, sent)
    assert total(samples, "referee_redis_up") == 1
    assert len(pids) >= 2, f"one worker served everything: {files}"
    if PROMTOOL is None:
        pytest.skip(NO_PROMTOOL)
    for text in (gateway.text, ghostone.text):
        check = subprocess.run([PROMTOOL, "check", "metrics"], check=False, input=text, text=True,
                               capture_output=True, timeout=60)
        assert check.returncode == 0, check.stdout + check.stderr


FRESH_PROCESS = """
import sys
from referee import metrics
from referee_gateway import create_app
from ghostone.service import create_app as ghostone_app
games = sys.argv[1].split(",")
create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "RATE_LIMIT_PER_MINUTE": 60,
            "GAME_SERVICES": {g: "http://127.0.0.1:1" for g in games}})
ghostone_app()
sys.stdout.write(metrics.exposition().decode())
"""


def test_every_known_series_is_at_zero_before_any_request(tmp_path):
    """A fresh process in multiprocess mode (as a gunicorn worker): its apps built, nothing
    asked yet, every known label set is in the exposition, at 0 (issue 31)."""
    run = subprocess.run([sys.executable, "-c", FRESH_PROCESS, ",".join(GAMES)], check=True,
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)})
    samples = [s for family in text_string_to_metric_families(run.stdout)
               for s in family.samples if s.name.startswith("referee_")]

    def at_zero(name, **labels):
        found = [s.value for s in samples if s.name == name and s.labels == labels]
        assert found == [0], (name, labels, found)

    moves = {"method": "POST", "route": "/v1/sessions/<sid>/moves"}
    for game in GAMES:
        for mode in metrics.MODES:
            at_zero("referee_session_moves_total", game=game, mode=mode)
        for status in ("200", "403", "409", "422", "429", "503"):
            at_zero("referee_http_requests_total", service="gateway", game=game,
                    status=status, **moves)
        at_zero("referee_http_request_duration_seconds_count", service="gateway", game=game,
                **moves)
        at_zero("referee_refusals_total", service="gateway", game=game, code="not_your_turn")
        for reason in series.UPSTREAM_REASONS:
            at_zero("referee_upstream_failures_total", game=game, reason=reason)
        at_zero("referee_upstream_request_duration_seconds_count", game=game)
        at_zero("referee_event_streams_open", game=game)
    from referee_gateway.upstream import REASONS  # the names the gateway counts
    assert {name for _, name in REASONS} | {"bad_answer"} == set(series.UPSTREAM_REASONS)
    at_zero("referee_rate_limit_hits_total", route=moves["route"])
    at_zero("referee_http_requests_total", service="gateway", game="", method="GET",
            route="/v1/games", status="200")
    for mode in (*metrics.MODES, "other"):
        at_zero("referee_moves_applied_total", game="ghostone", mode=mode)
    at_zero("referee_bot_decisions_total", game="ghostone")
    at_zero("referee_http_requests_total", service="ghostone", game="ghostone",
            method="POST", route="/v1/apply", status="200")
    at_zero("referee_refusals_total", service="ghostone", game="ghostone", code="illegal_move")
    counted = [s for s in samples if s.name.endswith(("_total", "_count"))]
    assert len(counted) > 1000
    # nothing counted yet but the Redis probe's first tries (there is no Redis on port 1)
    assert {s.name for s in counted if s.value} <= {"referee_redis_probe_failures_total",
                                                     "referee_redis_errors_total"}


def test_promtool_accepts_the_exposition_of_one_process(unlimited):
    if PROMTOOL is None:
        pytest.skip(NO_PROMTOOL)
    text = unlimited.get("/metrics", base_url=METRICS_PORT).get_data(as_text=True)
    check = subprocess.run([PROMTOOL, "check", "metrics"], check=False, input=text, text=True,
                           capture_output=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_forked_worker_writes_its_metrics_under_its_own_process_id():
    """prometheus_client asks for the process id on every write; ours is read once per
    process, and a forked child (a gunicorn worker) must read its own: two workers under
    one id would write one file and lose each other's counts."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.write(write, str(metrics.process_id()).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    assert int(os.read(read, 64)) == child != metrics.process_id() == os.getpid()
    os.close(read)
