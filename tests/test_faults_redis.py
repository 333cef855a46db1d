"""The fault suite's Redis and gateway half (issue 28, items 3, 5 and 6), on real parts:
Redis servers of its own (standalone and a three-master Cluster) frozen with SIGSTOP and
killed with SIGKILL, a gateway worker SIGKILLed, a whole replica of two killed and started
again, and streams past their limit at a small limit — all under real gunicorn, the stack's
own command line (``referee.stack.Stack``).

While a fault lasts, movers play with ``If-Match`` and retry every move with its
``Idempotency-Key`` until it is answered, watchers follow every seat's stream and resume
with ``Last-Event-ID``, and a prober asks the stateless routes, ``/readyz`` and
``/metrics``. Each scenario then counts: 0 moves lost or doubled (the log holds exactly the
moves that were answered, at their versions), 0 events lost, doubled or out of order per
seat, every 5xx a documented 503 ``service_unavailable`` with ``Retry-After``, the session
routes answered within 3 s, the stateless routes and ``/metrics`` always, the Redis gauge
showing the outage, and recovery within its bound. The other half (SIGHUP, the bot
worker, game services) is ``tests/test_faults_processes.py``.
"""

import itertools
import os
import random
import signal
import tempfile
import threading
import time
from dataclasses import dataclass, field

import psutil
import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families
from referee.embedded import EmbeddedCluster, EmbeddedRedis, free_port
from referee.sessions import keys
from referee.stack import Stack
from referee_client.sse import Event, parse
from support import bearer

pytestmark = pytest.mark.e2e

HEARTBEAT = 1  # seconds: a dead stream is noticed within one
ENV = {"LOG_LEVEL": "warning", "RATE_LIMIT_PER_MINUTE": "0", "RETRY_AFTER_SECONDS": "1",
       "STREAM_HEARTBEAT_SECONDS": str(HEARTBEAT)}
SESSION_ANSWER_BOUND = 3.0  # seconds: a session route answers (503 at worst) within this
# A Cluster client re-reads the slots from every node after a failure, one request at a
# time (redis-py's lock): requests caught in the first seconds of a whole-cluster freeze
# queue behind each other's re-reads, until the probe refuses them at once (README).
CLUSTER_ANSWER_BOUND = 6.0
# With Redis well, a process killed or starting again on this shared 2-core machine slows
# answers, never stalls them: a bound against a hang, not a speed
BUSY_ANSWER_BOUND = 10.0
# /metrics and the stateless routes never wait on Redis: answered at once in every fault
# (a bound far above what they take, far below Prometheus' 10 s scrape timeout)
PROMPT_BOUND = 3.0
RECOVERY_BOUND = 15.0  # seconds from the fault's end to a move landing again
FREEZE = 6.0  # seconds Redis stays frozen


# ------------------------------------------------------------------ what is seen
@dataclass
class Answer:
    kind: str  # "session", "stream", "stateless", "readyz", "metrics"
    status: int  # 0: no answer (the connection failed)
    seconds: float
    at: float
    problem: dict | None = None
    retry_after: str | None = None
    what: str = ""  # the request


@dataclass
class Seen:
    answers: list = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    redis_up: list = field(default_factory=list)  # (at, value) of each scrape

    def add(self, answer: Answer) -> None:
        with self.lock:
            self.answers.append(answer)

    def note(self, kind: str, response: requests.Response, began: float) -> None:
        problem = None
        if response.status_code >= 500:
            try:
                problem = response.json()
            except ValueError:
                problem = {"body": response.text[:200]}
            problem["content_type"] = response.headers.get("Content-Type")
        self.add(Answer(kind, response.status_code, time.monotonic() - began, began,
                        problem, response.headers.get("Retry-After"),
                        f"{response.request.method} {response.request.path_url}"))

    def assert_every_5xx_is_a_documented_503(self) -> None:
        bad = [a for a in self.answers if a.status >= 500 and not (
            a.status == 503 and a.problem.get("code") == "service_unavailable"
            and a.problem.get("content_type") == "application/problem+json"
            and a.retry_after and int(a.retry_after) >= 1)]
        assert not bad, bad[:5]

    def of(self, kind: str) -> list:
        return [a for a in self.answers if a.kind == kind]


class Replicas:
    """Gateway URLs a client turns to: the next one when a connection fails."""

    def __init__(self, urls):
        self.urls = list(urls)

    def pick(self, attempt: int, first: int = 0) -> str:
        """The URL of a request's ``attempt``-th try, its first try going to ``first``."""
        return self.urls[(first + attempt) % len(self.urls)]


def call(http, replicas, seen, method, path, *, token=None, ok=(200,), kind="session",
         headers=None, **kwargs) -> requests.Response:
    """Until answered with a status in ``ok``: after a 503, Retry-After; after a failed
    connection, the next replica. Anything else is a defect of the scenario."""
    headers = {**(bearer(token) if token else {}), **(headers or {})}
    first = random.randrange(len(replicas.urls))
    for attempt in range(600):
        began = time.monotonic()
        try:
            answer = http.request(method, replicas.pick(attempt, first) + path, headers=headers,
                                  timeout=(2, 10), **kwargs)
        except requests.RequestException:
            seen.add(Answer(kind, 0, time.monotonic() - began, began))
            time.sleep(0.2)
            continue
        seen.note(kind, answer, began)
        if answer.status_code in ok:
            return answer
        assert answer.status_code == 503, (method, path, answer.status_code, answer.text)
        time.sleep(min(float(answer.headers.get("Retry-After", 1)), 1.0))
    raise AssertionError(f"{method} {path}: never answered")


# ------------------------------------------------------------------ who plays
class Table:
    """A three-seat Ghostone session, created through the gateway."""

    def __init__(self, replicas, seen):
        with requests.Session() as http:
            created = call(http, replicas, seen, "POST", "/v1/sessions", ok=(201,),
                           json={"game": "ghostone", "players": 3}).json()
        self.sid, self.start = created["session_id"], created["version"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"]}
        self.spectator = created["spectator_token"]
        self.path = f"/v1/sessions/{self.sid}"


class Mover(threading.Thread):
    """Plays a table's moves one by one, each pinned to its version (If-Match) and retried
    with its Idempotency-Key until answered: ``landed`` maps each key to its version."""

    def __init__(self, table, replicas, seen, stop):
        super().__init__(daemon=True)
        self.table, self.replicas, self.seen, self.stop = table, replicas, seen, stop
        self.landed: dict[str, int] = {}
        self.landed_at: list[float] = []
        self.error = None
        self.over = False  # the game ended: no move is left to land

    def run(self):
        try:
            with requests.Session() as http:
                self.play(http)
        except BaseException as exc:  # noqa: BLE001 (reported by the test)
            self.error = exc

    def play(self, http):
        table, rnd = self.table, random.Random(self.table.sid)
        for number in itertools.count():
            if self.stop.is_set():
                return
            view = call(http, self.replicas, self.seen, "GET", table.path,
                        token=table.spectator).json()
            if not view["to_move"]:
                self.over = True
                return
            token = table.tokens[view["to_move"][0]]
            moves = call(http, self.replicas, self.seen, "GET", table.path + "/legal-moves",
                         token=token).json()["moves"]
            key = f"{table.sid}-{number}"
            answer = call(http, self.replicas, self.seen, "POST", table.path + "/moves",
                          token=token, json={"move": rnd.choice(moves)},
                          headers={"Idempotency-Key": key,
                                   "If-Match": f'"{view["version"]}"'})
            self.landed[key] = answer.json()["version"]
            self.landed_at.append(time.monotonic())


class Watcher(threading.Thread):
    """Follows one token's stream from the table's start, resuming with Last-Event-ID
    after every end, failure or refusal: ``ids`` is every event id it was sent."""

    def __init__(self, table, token, replicas, seen):
        super().__init__(daemon=True)
        self.table, self.token, self.replicas, self.seen = table, token, replicas, seen
        self.ids: list[int] = []
        self.last = table.start
        self.attempts = itertools.count()  # each follow goes to the next replica
        self.until: int | None = None  # stop once this version is seen
        self.wanted: list[int] = []  # the versions after the start, from the log
        self.error = None

    def done(self) -> bool:
        return self.until is not None and self.last >= self.until

    def run(self):
        try:
            with requests.Session() as http:
                while not self.done():
                    self.follow(http)
        except BaseException as exc:  # noqa: BLE001
            self.error = exc

    def lines(self, answer):
        """The stream's lines until done (a heartbeat comes each second to check)."""
        for line in answer.iter_lines(decode_unicode=True):
            if self.done():
                return
            yield line

    def follow(self, http):
        began = time.monotonic()
        try:
            with http.get(self.replicas.pick(next(self.attempts)) + self.table.path + "/events",
                          stream=True,
                          timeout=(2, 3 * HEARTBEAT),
                          headers={**bearer(self.token),
                                   "Last-Event-ID": str(self.last)}) as answer:
                self.seen.note("stream", answer, began)
                if answer.status_code != 200:
                    assert answer.status_code == 503, answer.text
                    time.sleep(min(float(answer.headers.get("Retry-After", 1)), 1.0))
                    return
                answer.encoding = "utf-8"
                for event in parse(self.lines(answer)):
                    if isinstance(event, Event) and event.id is not None:
                        assert event.event in ("move", "correction", "seats"), event
                        self.ids.append(event.id)
                        self.last = event.id
                        if self.done():
                            return
        except requests.RequestException:  # a dropped or silent stream: resume
            time.sleep(0.2)


class Prober(threading.Thread):
    """Asks what needs no Redis (``/v1/games``, a game's info from its service),
    ``/readyz`` and ``/metrics`` five times a second, and notes ``referee_redis_up``."""

    def __init__(self, url, metrics_url, seen, stop):
        super().__init__(daemon=True)
        self.url, self.metrics_url, self.seen, self.stop = url, metrics_url, seen, stop
        self.error = None

    def run(self):
        try:
            with requests.Session() as http:
                while not self.stop.is_set():
                    self.once(http)
                    time.sleep(0.2)
        except BaseException as exc:  # noqa: BLE001
            self.error = exc

    def once(self, http):
        for kind, url in (("stateless", self.url + "/v1/games"),
                          ("stateless", self.url + "/v1/games/ghostone"),
                          ("readyz", self.url + "/readyz"), ("metrics", self.metrics_url)):
            began = time.monotonic()
            try:
                answer = http.get(url, timeout=10)
            except requests.RequestException:
                self.seen.add(Answer(kind, 0, time.monotonic() - began, began))
                continue
            self.seen.note(kind, answer, began)
            if kind == "metrics" and answer.status_code == 200:
                up = [s.value for f in text_string_to_metric_families(answer.text)
                      for s in f.samples if s.name == "referee_redis_up"]
                self.seen.redis_up.append((began, up[0] if up else None))


# ------------------------------------------------------------------ a scenario
class Scenario:
    """Tables with movers and watchers on ``urls`` and a prober on the first: ``with``
    it around a fault, then :meth:`check` counts."""

    def __init__(self, stack, urls, tables=2):
        self.stack, self.seen, self.stop = stack, Seen(), threading.Event()
        self.replicas = Replicas(urls)
        self.tables = [Table(self.replicas, self.seen) for _ in range(tables)]
        self.movers = [Mover(t, self.replicas, self.seen, self.stop) for t in self.tables]
        self.watchers = [Watcher(t, token, Replicas(urls), self.seen)
                         for t in self.tables for token in t.tokens.values()]
        self.prober = Prober(urls[0], stack.metrics_urls["gateway"], self.seen, self.stop)

    def __enter__(self):
        for thread in (*self.watchers, *self.movers, self.prober):
            thread.start()
        self.wait_for_moves(3)  # playing before the fault
        return self

    def __exit__(self, *exc):
        self.stop.set()

    def wait_for_moves(self, count: int, after: float = 0.0, bound: float = 60) -> float:
        """Until every mover landed ``count`` moves after ``after`` or its game ended (a
        table whose Redis node stayed up may play to the end during another node's fault);
        how long it took."""
        began = time.monotonic()
        while any(not m.over and len([t for t in m.landed_at if t > after]) < count
                  for m in self.movers):
            assert time.monotonic() - began < bound, "moves did not land"
            assert not any(m.error for m in self.movers), [m.error for m in self.movers]
            time.sleep(0.05)
        return time.monotonic() - began

    def seen_down(self, began: float, ended: float) -> bool:
        """Whether a scrape of the gateway's /metrics said Redis down (0) within the fault."""
        return any(up == 0 for at, up in self.seen.redis_up if began < at < ended)

    def outage(self, began: float, at_least: float, at_most: float) -> None:
        """Keep a fault ``at_least`` seconds, and on until a scrape said Redis down (at most
        ``at_most``): the probe trips after two failed pings, and on a starved machine the
        prober's scrape can come late, so a fixed span can end before it is seen."""
        time.sleep(at_least)
        while not self.seen_down(began, time.monotonic()) and \
                time.monotonic() < began + at_most:
            time.sleep(0.05)

    def gauge_back(self, fault_ended: float) -> None:
        """Until a scrape says Redis up again, within the recovery bound: the process
        serving /metrics probes on its own clock, so it may say so a probe (on a starved
        machine, a few) after the movers land again."""
        while self.seen.redis_up[-1][1] != 1 and \
                time.monotonic() < fault_ended + RECOVERY_BOUND:
            time.sleep(0.2)

    def recover(self, fault_ended: float) -> float:
        """Seconds from the fault's end until every mover still playing landed a move again."""
        self.wait_for_moves(1, after=fault_ended, bound=RECOVERY_BOUND + 30)
        return max(min(t for t in m.landed_at if t > fault_ended) for m in self.movers
                   if m.landed_at[-1] > fault_ended) - fault_ended

    def check(self, dropped_allowed: bool = False, bound=SESSION_ANSWER_BOUND) -> dict:
        """Everything counted once the movers stop; what was measured."""
        self.stop.set()
        for mover in self.movers:
            mover.join(60)
            assert not mover.is_alive() and mover.error is None, mover.error
        self.prober.join(30)
        assert self.prober.error is None, self.prober.error
        seen, counts = self.seen, {"moves": 0, "events": 0}
        with requests.Session() as http:
            for table, mover in zip(self.tables, self.movers):
                log = call(http, self.replicas, seen, "GET", table.path + "/log?since=0",
                           token=table.spectator).json()["entries"]
                moved = sorted(e["version"] for e in log if "move" in e)
                answered = sorted(mover.landed.values())
                # 0 lost (every answered move is in the log) and 0 doubled (nothing else is)
                assert moved == answered, (moved, answered)
                assert len(set(answered)) == len(answered)
                counts["moves"] += len(moved)
                versions = [e["version"] for e in log if e["version"] > table.start]
                for watcher in self.watchers:
                    if watcher.table is table:
                        watcher.wanted = versions
                        watcher.until = versions[-1] if versions else table.start
        for watcher in self.watchers:
            watcher.join(60)
            assert not watcher.is_alive() and watcher.error is None, (
                watcher.error, watcher.last, watcher.until, watcher.ids[-5:])
            # 0 lost, doubled or out of order: exactly every version after the start, once
            assert watcher.ids == watcher.wanted, (watcher.ids, watcher.wanted)
            counts["events"] += len(watcher.ids)
        seen.assert_every_5xx_is_a_documented_503()
        slow = [a for a in seen.of("session") if a.seconds > bound]
        assert not slow, slow[:5]
        for kind in ("stateless", "readyz", "metrics"):
            answers = seen.of(kind)
            # a killed worker drops what it was answering: the client sees a reset, retries
            failed = [a for a in answers if a.status != 200
                      and not (dropped_allowed and a.status == 0)]
            assert answers and not failed, failed[:5]
            late = [a for a in answers if a.seconds > PROMPT_BOUND]
            assert not late, late[:5]
        counts.update(
            refused=len([a for a in seen.answers if a.status == 503]),
            slowest_session=max(a.seconds for a in seen.of("session")),
            slowest_metrics=max(a.seconds for a in seen.of("metrics")),
            slowest_stateless=max(a.seconds for a in seen.of("stateless")))
        return counts


# ------------------------------------------------------------------ the faults
def signal_all(processes, signum) -> None:
    for process in processes:
        os.kill(process.pid, signum)


def freeze(scenario, redis_processes, seconds=FREEZE, bound=SESSION_ANSWER_BOUND) -> dict:
    """Redis frozen (SIGSTOP) for ``seconds`` under play; what was counted."""
    frozen_at = time.monotonic()
    signal_all(redis_processes, signal.SIGSTOP)
    try:
        time.sleep(seconds)
    finally:
        signal_all(redis_processes, signal.SIGCONT)
    thawed_at = time.monotonic()
    recovered = scenario.recover(thawed_at)
    scenario.wait_for_moves(2, after=thawed_at)
    scenario.gauge_back(thawed_at)
    counts = scenario.check(bound=bound)
    # the gauge showed the outage while it lasted (a probe, not a scrape, asks Redis),
    # and shows Redis back after it
    during = [up for at, up in scenario.seen.redis_up if frozen_at + 3 < at < thawed_at]
    assert during and 0 in during, scenario.seen.redis_up
    assert scenario.seen.redis_up[-1][1] == 1
    refused_in_time = [a for a in scenario.seen.of("session")
                       if a.status == 503 and frozen_at <= a.at < thawed_at]
    assert refused_in_time, "the hang was seen by the session routes"
    assert recovered < RECOVERY_BOUND
    return dict(counts, recovered_s=round(recovered, 2))


@pytest.fixture(scope="module")
def redis_server():
    """A standalone Redis of this module's own (it is frozen and killed here), writing
    every change to its append-only file before answering: a SIGKILL loses nothing
    acknowledged, as a Redis holding people's games should be configured."""
    with tempfile.TemporaryDirectory(prefix="referee-faults-") as data:
        server = EmbeddedRedis(data, extra=["--appendfsync", "always"]).start()
        yield server
        server.stop()


@pytest.fixture(scope="module")
def two_replicas(redis_server):
    """The stack (the Ghostone service, two gateway workers) and a second gateway replica
    on the same Redis."""
    with Stack(port=free_port(), workers=2, threads=4, redis_url=redis_server.url,
               log=lambda line: None, env=ENV, games=["ghostone"]) as stack:
        stack.second_port = free_port()
        stack.second_url = stack.add_gateway(stack.second_port)
        yield stack


REPORT: dict[str, dict] = {}  # scenario → what was counted (printed at the module's end)


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    for name, counts in REPORT.items():
        print(f"\n{name}: {counts}")


def test_redis_frozen_standalone(two_replicas, redis_server):
    with Scenario(two_replicas, [two_replicas.url, two_replicas.second_url]) as scenario:
        REPORT["redis frozen (standalone)"] = freeze(scenario, [redis_server.process])


def test_redis_killed_and_restarted(two_replicas, redis_server):
    """SIGKILL, then the same server started again on its port and its data: while it is
    gone the session routes are refused at once (connection refused), then all resumes."""
    with Scenario(two_replicas, [two_replicas.url, two_replicas.second_url]) as scenario:
        redis_server.process.kill()
        redis_server.process.wait(10)
        killed_at = time.monotonic()
        scenario.outage(killed_at, at_least=3, at_most=10)
        redis_server.start()  # the same port, the same append-only file
        started_at = time.monotonic()
        recovered = scenario.recover(started_at)
        scenario.wait_for_moves(2, after=started_at)
        counts = scenario.check()
        assert scenario.seen_down(killed_at, started_at), scenario.seen.redis_up
        assert recovered < RECOVERY_BOUND
        REPORT["redis killed and restarted"] = dict(counts, recovered_s=round(recovered, 2))


def test_a_gateway_worker_killed(two_replicas):
    """SIGKILL to one worker of the first replica: gunicorn starts another; what it was
    answering is dropped (the client retries), nothing is lost or doubled."""
    with Scenario(two_replicas, [two_replicas.url, two_replicas.second_url]) as scenario:
        master = psutil.Process(two_replicas.processes["gateway"].pid)
        workers = master.children()
        assert len(workers) == 2
        workers[0].kill()
        killed_at = time.monotonic()
        recovered = scenario.recover(killed_at)
        scenario.wait_for_moves(3, after=killed_at)
        counts = scenario.check(dropped_allowed=True, bound=BUSY_ANSWER_BOUND)
        deadline = time.monotonic() + RECOVERY_BOUND
        while len([w for w in master.children() if w.pid != workers[0].pid]) < 2:
            assert time.monotonic() < deadline, "gunicorn did not replace the worker"
            time.sleep(0.1)
        REPORT["gateway worker SIGKILLed"] = dict(counts, recovered_s=round(recovered, 2))


def test_a_gateway_replica_killed_and_restarted(two_replicas):
    """The second replica, master and workers, SIGKILLed mid-play; its clients turn to the
    first; it is started again on its port and serves again."""
    stack = two_replicas
    name = f"gateway-{stack.second_port}"
    with Scenario(stack, [stack.url, stack.second_url]) as scenario:
        os.killpg(stack.processes[name].pid, signal.SIGKILL)  # its own process group
        stack.processes[name].wait(10)
        killed_at = time.monotonic()
        scenario.wait_for_moves(2, after=killed_at)  # the first replica carries on
        time.sleep(1)
        stack.add_gateway(stack.second_port)  # ready (it answers /readyz) when it returns
        restarted_at = time.monotonic()
        ready = requests.get(stack.second_url + "/readyz", timeout=10)
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
        scenario.wait_for_moves(3, after=restarted_at)
        counts = scenario.check(dropped_allowed=True, bound=BUSY_ANSWER_BOUND)
        served = [a for a in scenario.seen.answers if a.at > restarted_at and a.status == 200]
        assert served
        REPORT["gateway replica killed and restarted"] = dict(
            counts, restarted_s=round(restarted_at - killed_at, 2))


@pytest.fixture(scope="module")
def cluster():
    """A three-master Redis Cluster of this module's own, each master writing every change
    to its append-only file before answering (as the standalone one)."""
    with EmbeddedCluster(masters=3, extra=["--appendfsync", "always"]) as cluster:
        yield cluster


@pytest.fixture(scope="module")
def cluster_stack(cluster):
    with Stack(port=free_port(), workers=2, threads=4, redis_url=cluster.url,
               log=lambda line: None, env={**ENV, "REDIS_CLUSTER": "1"},
               games=["ghostone"]) as stack:
        yield stack


def test_redis_cluster_frozen(cluster, cluster_stack):
    """The same on a real three-master Redis Cluster, every master frozen at once (for
    less than its cluster-node-timeout, 5 s: no master is voted failed meanwhile)."""
    with Scenario(cluster_stack, [cluster_stack.url]) as scenario:
        REPORT["redis cluster frozen"] = freeze(
            scenario, [node.process for node in cluster.nodes], seconds=4.5,
            bound=CLUSTER_ANSWER_BOUND)


@pytest.mark.parametrize("which", ["one master", "every master"])
def test_redis_cluster_killed_and_restarted(cluster, cluster_stack, which):
    """The standalone kill on the Cluster: SIGKILL to the master serving the first table
    (or to all three), then each started again on its port, its data and its cluster config
    (the same node, the same slots). Down for less than the cluster-node-timeout: no master
    is voted failed; a master started again refuses commands (CLUSTERDOWN) for Redis's
    own 2 s before it rejoins, which the client sees as more 503s."""
    with Scenario(cluster_stack, [cluster_stack.url]) as scenario:
        first = cluster.master_of(keys.meta(scenario.tables[0].sid))
        killed = [first] if which == "one master" else cluster.nodes
        for node in killed:
            cluster.kill(node)
        killed_at = time.monotonic()
        # below the cluster-node-timeout (5 s): no failover is voted meanwhile
        scenario.outage(killed_at, at_least=3, at_most=4.5)
        for node in killed:
            cluster.restart(node)
        started_at = time.monotonic()
        recovered = scenario.recover(started_at)
        scenario.wait_for_moves(2, after=started_at)
        # the table on a killed master could not end meanwhile: its moves landed again
        assert scenario.movers[0].landed_at[-1] > started_at
        scenario.gauge_back(started_at)
        counts = scenario.check(bound=CLUSTER_ANSWER_BOUND)
        assert scenario.seen_down(killed_at, started_at), scenario.seen.redis_up
        assert scenario.seen.redis_up[-1][1] == 1
        assert recovered < RECOVERY_BOUND
        REPORT[f"redis cluster: {which} killed and restarted"] = dict(
            counts, recovered_s=round(recovered, 2))


# ------------------------------------------------------------ streams past the limit
CONNECTIONS = 40  # a gevent worker's connections here; its stream limit is derived


def open_stream(url: str, token: str, since: int):
    """A stream held open: (its HTTP session, its answer, its lines), or the refusal."""
    http = requests.Session()
    answer = http.get(url, stream=True, timeout=(5, 10),
                      headers={**bearer(token), "Last-Event-ID": str(since)})
    answer.encoding = "utf-8"
    return http, answer, answer.iter_lines(decode_unicode=True)


def test_streams_past_the_limit_are_refused_and_the_replica_keeps_answering(redis_url):
    from referee import capacity
    limit = capacity.stream_limit({"GUNICORN_WORKER_CONNECTIONS": str(CONNECTIONS)})
    assert limit < CONNECTIONS
    env = {**ENV, "GUNICORN_WORKER_CONNECTIONS": str(CONNECTIONS),
           "REDIS_MAX_CONNECTIONS": "4"}  # a pool far smaller than the streams
    with Stack(port=free_port(), workers=1, threads=4, redis_url=redis_url,
               log=lambda line: None, env=env, games=["ghostone"]) as stack:
        seen, replicas = Seen(), Replicas([stack.url])
        table = Table(replicas, seen)
        url = stack.url + table.path + "/events"
        seats = list(table.tokens.values())
        held = [open_stream(url, seats[n % 3], table.start) for n in range(limit)]
        assert [answer.status_code for _, answer, _ in held] == [200] * limit
        # every further stream: a 503 with Retry-After, never silence (the timeout)
        for n in range(CONNECTIONS - limit + 5):
            http, answer, _ = open_stream(url, seats[n % 3], table.start)
            seen.note("stream", answer, time.monotonic())
            assert answer.status_code == 503 and int(answer.headers["Retry-After"]) >= 1
            http.close()
        seen.assert_every_5xx_is_a_documented_503()
        # at the limit, the replica answers moves, /readyz and the stateless routes
        with requests.Session() as http:
            assert http.get(stack.url + "/readyz", timeout=10).status_code == 200
            assert http.get(stack.url + "/v1/games", timeout=10).status_code == 200
            for _ in range(3):
                view = call(http, replicas, seen, "GET", table.path, token=table.spectator)
                seat = view.json()["to_move"][0]
                moves = call(http, replicas, seen, "GET", table.path + "/legal-moves",
                             token=table.tokens[seat]).json()["moves"]
                call(http, replicas, seen, "POST", table.path + "/moves",
                     token=table.tokens[seat], json={"move": moves[0]})
            last = call(http, replicas, seen, "GET", table.path,
                        token=table.spectator).json()["version"]
        assert [a.status for a in seen.of("session")] == [201] + [200] * 10
        # every held stream got every move, though 4 Redis connections serve them all
        for _, _, lines in held:
            ids = [event.id for event in parse(until_version(lines, last))
                   if isinstance(event, Event) and event.id is not None]
            assert ids == list(range(table.start + 1, last + 1))
        # streams whose clients left are let go within one heartbeat (and a margin)
        gone = held[:8]
        for http, answer, _ in gone:
            answer.close()
            http.close()
        left_at = time.monotonic()
        while open_streams(stack) > limit - len(gone):
            assert time.monotonic() - left_at < 2 * HEARTBEAT + 3, open_streams(stack)
            time.sleep(0.05)
        noticed = time.monotonic() - left_at
        again = [open_stream(url, seats[0], last) for _ in gone]
        assert [answer.status_code for _, answer, _ in again] == [200] * len(gone)
        for http, answer, _ in held[8:] + again:
            answer.close()
            http.close()
        REPORT["streams past the limit"] = {
            "limit": limit, "connections": CONNECTIONS, "refused": CONNECTIONS - limit + 5,
            "dead_noticed_s": round(noticed, 2)}


def until_version(lines, version: int):
    """A stream's lines up to the blank line after the event with id ``version``."""
    seen_last = False
    for line in lines:
        yield line
        if line == f"id: {version}":
            seen_last = True
        elif seen_last and line == "":
            return


def open_streams(stack) -> float:
    scraped = requests.get(stack.metrics_urls["gateway"], timeout=10).text
    return sum(s.value for f in text_string_to_metric_families(scraped) for s in f.samples
               if s.name == "referee_event_streams_open")
