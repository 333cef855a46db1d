"""A real Prometheus scrapes a live stack (issue 31): every series is there at 0 before the
first move, so ``increase()`` over the window counts every move and refusal that was played;
every alert rule and every dashboard query evaluates without error, and each query returns
data. Prometheus is Debian's ``prometheus`` (make test installs it, tools/ensure_promtool.sh),
scraping each server's /metrics on its own port every second; its TSDB is in a temp dir."""

import json
import math
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import requests
import yaml
from prometheus_client.parser import text_string_to_metric_families
from referee.embedded import free_port
from referee.stack import Stack, wait_until

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(
    shutil.which("prometheus") is None,
    reason="prometheus is missing (apt-get install prometheus; make test installs it)")]

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "k8s/monitoring/referee-alerts.yml"
DASHBOARD = ROOT / "k8s/monitoring/referee-dashboard.json"
GAME = "ghostone"  # one game service is enough for the series; the others start the same
MOVES, REFUSALS = 12, 3  # what the test plays: that many moves, that many out of turn
SCRAPE_SECONDS = 1


@pytest.fixture(scope="module")
def stack(redis_url):
    # two workers each: the series of both workers' files add up in one exposition
    with Stack(port=free_port(), workers=2, threads=2, redis_url=redis_url,
               log=lambda line: None, games=[GAME],
               env={"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0"}) as running:
        yield running


@pytest.fixture(scope="module")
def prometheus(stack, tmp_path_factory):
    """Prometheus scraping every server of ``stack``, with the project's alert rules."""
    folder = tmp_path_factory.mktemp("prometheus")
    targets = [{"targets": [url.split("/")[2]], "labels": {"server": name}}
               for name, url in stack.metrics_urls.items()]
    config = {"global": {"scrape_interval": f"{SCRAPE_SECONDS}s",
                         "evaluation_interval": f"{SCRAPE_SECONDS}s"},
              "rule_files": [str(RULES)],
              "scrape_configs": [{"job_name": "referee", "static_configs": targets}]}
    (folder / "prometheus.yml").write_text(yaml.safe_dump(config))
    url = f"http://127.0.0.1:{free_port()}"
    log = (folder / "prometheus.log").open("w")
    process = subprocess.Popen(
        ["prometheus", f"--config.file={folder / 'prometheus.yml'}",
         f"--storage.tsdb.path={folder / 'data'}", f"--web.listen-address={url[7:]}"],
        stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: requests.get(f"{url}/-/ready", timeout=2).ok, process,
                   "prometheus", timeout=60)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def query(prometheus: str, expr: str, at: float | None = None) -> list:
    """An instant query's result; fails on any error Prometheus reports."""
    params = {"query": expr, **({"time": f"{at:.3f}"} if at is not None else {})}
    answer = requests.get(f"{prometheus}/api/v1/query", params=params, timeout=10).json()
    assert answer["status"] == "success", (expr, answer)
    assert not answer.get("warnings"), (expr, answer["warnings"])
    return answer["data"]["result"]


def value(prometheus: str, expr: str, at: float | None = None) -> float:
    """The one sample of ``expr``."""
    result = query(prometheus, expr, at)
    assert len(result) == 1, (expr, result)
    return float(result[0]["value"][1])


def scraped(stack) -> list:
    """Every sample of every server's /metrics now (the ground truth, read directly)."""
    return [(name, sample) for name, url in stack.metrics_urls.items()
            for family in text_string_to_metric_families(requests.get(url, timeout=10).text)
            for sample in family.samples]


def raw(samples, server: str, name: str, **labels) -> float:
    return sum(s.value for where, s in samples if where == server and s.name == name
               and all(s.labels.get(k) == v for k, v in labels.items()))


def scraped_since(prometheus: str, since: float) -> bool:
    """Prometheus has scraped every server, successfully, since ``since`` (a Unix time): a
    failed scrape (a server still starting) has an ``up`` too, at 0, and no series."""
    targets = query(prometheus, "up")
    stamps = query(prometheus, "timestamp(up == 1)")
    return len(targets) >= 2 and len(stamps) == len(targets) and min(
        float(s["value"][1]) for s in stamps) > since


def play(stack) -> None:
    """:data:`MOVES` moves of a ghostone session, and :data:`REFUSALS` moves out of turn."""
    with requests.Session() as http:
        created = http.post(f"{stack.url}/v1/sessions", timeout=10,
                            json={"game": GAME, "seed": 31, "players": 3})
        assert created.status_code == 201, created.text
        session = created.json()
        moves_url = f"{stack.url}/v1/sessions/{session['session_id']}/moves"
        tokens = {s["seat"]: s["token"] for s in session["seats"]}
        to_move = session["view"]["to_move"]
        for number in range(MOVES):
            seat = to_move[0]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            listed = http.get(f"{stack.url}/v1/sessions/{session['session_id']}/legal-moves",
                              headers=auth, timeout=10)
            move = listed.json()["moves"][0]
            if number < REFUSALS:
                idle = next(s for s in tokens if s not in to_move)
                refused = http.post(moves_url, json={"move": dict(move, seat=idle)},
                                    headers={"Authorization": f"Bearer {tokens[idle]}"},
                                    timeout=10)
                assert refused.status_code == 403, refused.text
                assert refused.json()["code"] == "not_your_turn"
            moved = http.post(moves_url, json={"move": move}, headers=auth, timeout=10)
            assert moved.status_code == 200, moved.text
            to_move = moved.json()["to_move"]
            assert to_move, "the game ended before the test's moves were played"


def assert_counted(prometheus: str, before, after, counted, played_from: float) -> None:
    """Each ``(server, series, labels, played)`` grew by ``played`` on the server itself and,
    through Prometheus, by ``increase()`` over the game's window."""
    for server, name, labels, played in counted:
        assert raw(after, server, name, **labels) - raw(before, server, name, **labels) == \
            played, (name, labels)
        selector = name + "{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "}"
        # The series was scraped before the first move (at 0, as every series starts), and
        # after the last: increase() over exactly that window, from sample to sample, has
        # nothing to extrapolate and counts all that was played.
        first = value(prometheus, f"timestamp({selector})", played_from)
        assert value(prometheus, selector, first) == raw(before, server, name, **labels)
        # a scrape that holds every count the server wrote (a server counts just after it
        # answers: a scrape in between holds the earlier count)
        for _ in range(300):
            if value(prometheus, selector) == raw(after, server, name, **labels):
                break
            time.sleep(0.1)
        last = value(prometheus, f"timestamp({selector})")
        window = f"{round((last - first) * 1000)}ms"
        assert value(prometheus, f"increase({selector}[{window}])", last) == \
            pytest.approx(played), (selector, window)
        # and at any time after the game, over a window that holds it, no less than played
        window = math.ceil(time.time() - played_from) + 2 * SCRAPE_SECONDS
        assert value(prometheus, f"increase({selector}[{window}s])") >= played


def test_increase_counts_every_move_and_refusal_from_the_first(stack, prometheus):
    # Every series at 0 first: two scrapes of every server before anything is played.
    began = time.time()
    wait_until(lambda: scraped_since(prometheus, began + SCRAPE_SECONDS), stack.processes[
        "gateway"], "two scrapes of every server", timeout=30)
    counted = [  # (server, series, labels, what was played)
        ("gateway", "referee_session_moves_total", {"game": GAME, "mode": "digital"}, MOVES),
        ("gateway", "referee_http_requests_total",
         {"service": "gateway", "game": GAME, "route": "/v1/sessions/<sid>/moves",
          "method": "POST", "status": "200"}, MOVES),
        ("gateway", "referee_http_requests_total",
         {"service": "gateway", "game": GAME, "route": "/v1/sessions/<sid>/moves",
          "method": "POST", "status": "403"}, REFUSALS),
        ("gateway", "referee_refusals_total",
         {"service": "gateway", "game": GAME, "code": "not_your_turn"}, REFUSALS),
        (GAME, "referee_moves_applied_total", {"game": GAME, "mode": "digital"}, MOVES),
        (GAME, "referee_refusals_total",
         {"service": GAME, "game": GAME, "code": "not_your_turn"}, REFUSALS),
    ]
    # (a server answering before its workers wrote their series at 0 is scraped without
    # them: the game starts once Prometheus holds each series)
    for server, name, labels, _ in counted:
        selector = name + "{" + ",".join(f'{k}="{v}"' for k, v in labels.items()) + "}"
        wait_until(lambda selector=selector: query(prometheus, selector), stack.processes[
            server], f"{selector} scraped at 0", timeout=30)
    time.sleep(SCRAPE_SECONDS)
    before = scraped(stack)
    played_from = time.time()
    play(stack)
    # the servers write their counts within 0.1 s; then one more scrape of each
    played_to = time.time() + 0.5
    wait_until(lambda: scraped_since(prometheus, played_to), stack.processes["gateway"],
               "a scrape of every server after the game", timeout=30)
    after = scraped(stack)
    assert_counted(prometheus, before, after, counted, played_from)


def play_against_bots(stack, moves: int = 4) -> int:
    """A person's ``moves`` moves of a ghostone table whose seats 2 and 3 are bots, until it
    is the person's turn again; how many moves the bots made."""
    with requests.Session() as http:
        created = http.post(f"{stack.url}/v1/sessions", timeout=10, json={
            "game": GAME, "seed": 31, "players": 3, "bots": {"2": "random", "3": "random"}})
        assert created.status_code == 201, created.text
        session = created.json()
        url = f"{stack.url}/v1/sessions/{session['session_id']}"
        auth = {"Authorization": f"Bearer {session['seats'][0]['token']}"}
        made = 0
        for _ in range(3000):  # the bots answer within their budget: a bound, not a timing
            if 1 in http.get(url, headers=auth, timeout=10).json()["to_move"]:
                if made == moves:
                    break
                move = http.get(f"{url}/legal-moves", headers=auth, timeout=10).json()
                moved = http.post(f"{url}/moves", json={"move": move["moves"][0]},
                                  headers=auth, timeout=10)
                assert moved.status_code == 200, moved.text
                made += 1
            else:
                time.sleep(0.05)
        else:
            pytest.fail("the bots did not answer")
        entries = http.get(f"{url}/log", headers=auth, timeout=10).json()["entries"]
        return sum(1 for e in entries if str(e.get("by", "")).startswith("bot:"))


def test_the_bot_worker_is_scraped_and_its_lag_counts_every_bot_move(stack, prometheus):
    """Issue 31 item 2: the bot worker's own /metrics, scraped live; every bot move counted
    and its lag observed, from 0."""
    began = time.time()
    wait_until(lambda: scraped_since(prometheus, began + SCRAPE_SECONDS), stack.processes[
        "bots"], "two scrapes of every server", timeout=30)
    assert value(prometheus, 'up{server="bots"}') == 1
    before = scraped(stack)
    played_from = time.time()
    bot_moves = play_against_bots(stack)
    assert bot_moves >= 8
    played_to = time.time() + 0.5
    wait_until(lambda: scraped_since(prometheus, played_to), stack.processes["bots"],
               "a scrape of every server after the game", timeout=30)
    after = scraped(stack)
    assert_counted(prometheus, before, after, [
        ("bots", "referee_botworker_moves_total", {"game": GAME, "lane": "people"}, bot_moves),
        ("bots", "referee_botworker_lag_seconds_count", {"lane": "people"}, bot_moves),
        ("bots", "referee_botworker_errors_total", {"reason": "upstream"}, 0),
    ], played_from)
    assert raw(after, "bots", "referee_botworker_lag_seconds_sum", lane="people") > \
        raw(before, "bots", "referee_botworker_lag_seconds_sum", lane="people")


def test_every_alert_rule_evaluates_without_error(stack, prometheus):
    written = yaml.safe_load(RULES.read_text())
    names = {r["alert"] for group in written["groups"] for r in group["rules"]}

    def evaluated() -> list:
        groups = requests.get(f"{prometheus}/api/v1/rules", timeout=10).json()["data"]
        rules = [r for group in groups["groups"] for r in group["rules"]]
        # a rule not evaluated yet reads 0001-01-01T00:00:00Z
        return rules if all(not r["lastEvaluation"].startswith("0001") for r in rules) else []

    wait_until(lambda: bool(evaluated()), stack.processes["gateway"], "the rules' evaluation",
               timeout=30)
    rules = evaluated()
    assert {r["name"] for r in rules} == names
    for rule in rules:
        assert rule["health"] == "ok", (rule["name"], rule.get("lastError"))
        query(prometheus, rule["query"])  # and as a query of its own, no error


def test_every_dashboard_query_returns_data(stack, prometheus):
    # a game while Prometheus scrapes, as normal traffic: the rates need two samples
    began = time.time()
    wait_until(lambda: scraped_since(prometheus, began), stack.processes["gateway"],
               "a scrape of every server", timeout=30)
    play(stack)
    for _ in range(2):
        since = time.time() + 0.5
        wait_until(lambda since=since: scraped_since(prometheus, since),
                   stack.processes["gateway"],
                   "a scrape of every server after the game", timeout=30)
    panels = json.loads(DASHBOARD.read_text())["panels"]
    exprs = [(p["title"], t["expr"]) for p in panels for t in p.get("targets", [])]
    assert len(exprs) >= 17
    empty = [(title, expr) for title, expr in exprs if not query(prometheus, expr)]
    assert not empty, f"dashboard queries with no series: {empty}"
    # the ratios read 0 when healthy (no 5xx, no Redis error), not nothing
    ratio = next(e for t, e in exprs if t == "5xx ratio")
    assert value(prometheus, ratio) == 0
