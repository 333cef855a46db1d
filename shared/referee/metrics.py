"""Prometheus metrics of the gateway and the game services (prometheus_client).

Under gunicorn each worker is a process, so the metrics go through
prometheus_client's multiprocess mode: ``referee/gunicorn_conf.py`` sets up
``PROMETHEUS_MULTIPROC_DIR`` before the workers fork, and :func:`exposition`
reads every worker's files through a fresh registry with a
``MultiProcessCollector``, so the workers add up. In one process (the tests,
``flask run``) it reads the default registry.

Names carry their unit (``_seconds``, ``_total``); labels are bounded (service,
method, route template, game, status, problem code, Redis command, error
class): never a session id, a token or anything a caller chose freely.

Bots call :func:`bot_decided` once per move they choose.

A request's metric writes are handed over with :func:`later` and made in batches by a
thread of the process (:mod:`referee.batches`), at most 0.1 s later: made in the request,
between its other work, they cost it several times more. A scrape makes its own process's
waiting writes first; another worker's may show up to 0.1 s later.
"""

import logging
import os
import threading
import time

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.core import GaugeMetricFamily
from redis.exceptions import NoScriptError, RedisError

from .batches import Batches
from .engine import MODES

log = logging.getLogger(__name__)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# An HTTP answer takes milliseconds; a Redis command a fraction of one.
SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
REDIS_SECONDS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                 0.25, 1.0)

_pid = os.getpid()


def process_id() -> int:
    """This process's id, read once per process: prometheus_client asks for it on every
    metric write (to notice a fork), and ``os.getpid`` is a system call each time."""
    return _pid


def _forked() -> None:
    global _pid
    _pid = os.getpid()


os.register_at_fork(after_in_child=_forked)
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):  # set before the workers import this
    # gunicorn's master made it; a process of its own with the image's setting (the bot
    # worker) finds none: its metrics are written there all the same
    os.makedirs(os.environ["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)
    values.ValueClass = values.MultiProcessValue(process_identifier=process_id)

REQUESTS = Counter(
    "referee_http_requests_total", "HTTP requests answered, by route template and status",
    ["service", "method", "route", "game", "status"])
LATENCY = Histogram(
    "referee_http_request_duration_seconds", "Time to answer an HTTP request",
    ["service", "method", "route", "game"], buckets=SECONDS)
REFUSALS = Counter(
    "referee_refusals_total", "Requests refused with a problem+json answer (4xx), by its code",
    ["service", "game", "code"])
SESSION_MOVES = Counter(
    "referee_session_moves_total", "Moves that landed in a session (counted by the gateway)",
    ["game", "mode"])
MOVES_APPLIED = Counter(
    "referee_moves_applied_total",
    "Moves a game service applied (/v1/apply: session moves and stateless callers)",
    ["game", "mode"])
RATE_LIMIT_HITS = Counter(
    "referee_rate_limit_hits_total", "Requests refused by the rate limit (429)", ["route"])
UPSTREAM_FAILURES = Counter(
    "referee_upstream_failures_total",
    "Gateway calls to a game service that failed: ConnectionError, ConnectTimeout, "
    "ReadTimeout, or bad_answer (a 5xx or a body that is not JSON)", ["game", "reason"])
UPSTREAM_LATENCY = Histogram(
    "referee_upstream_request_duration_seconds", "Time of a gateway call to a game service",
    ["game"], buckets=SECONDS)
REDIS_LATENCY = Histogram(
    "referee_redis_command_duration_seconds", "Time of a Redis command, its retries included",
    ["command"], buckets=REDIS_SECONDS)
REDIS_ERRORS = Counter(
    "referee_redis_errors_total", "Redis commands that failed, by error class",
    ["command", "error"])
REDIS_PROBE_FAILURES = Counter(
    "referee_redis_probe_failures_total",
    "Background probes of Redis (a PING with a short timeout, once a second per gateway "
    "worker) that got no answer")
STREAMS_OPEN = Gauge(
    "referee_event_streams_open", "Event streams open now", ["game"],
    multiprocess_mode="livesum")
BOT_DECISIONS = Counter(
    "referee_bot_decisions_total", "Moves chosen by a bot", ["game"])
# The bot worker's own (referee_gateway.botworker, a process of its own with a metrics port):
# how late the bots are is what it is scaled on and alerted on.
BOT_LAG_SECONDS = (0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0)
BOT_LANES = ("people", "bots-only")
#: why a bot move was not made: a game service failed or refused (``upstream``), the session
#: store did not answer (``store``), anything else (``other``: a bug, logged with its trace)
BOT_ERROR_REASONS = ("upstream", "store", "other")
BOTWORKER_MOVES = Counter(
    "referee_botworker_moves_total", "Bot moves the bot worker made land in a session",
    ["game", "lane"])
BOTWORKER_ERRORS = Counter(
    "referee_botworker_errors_total", "Bot moves the bot worker could not make, by reason",
    ["reason"])
BOTWORKER_LAG = Histogram(
    "referee_botworker_lag_seconds",
    "From a bot's turn (its table marked due: the change that made it the bot's turn) to its "
    "move landing, thinking included", ["lane"], buckets=BOT_LAG_SECONDS)


class Children:
    """A metric's series by label values, each looked up once: a request touches the same
    few series again and again (the labels are bounded, so is this)."""

    def __init__(self, metric):
        self.metric, self.found = metric, {}

    def __call__(self, *labels):
        child = self.found.get(labels)
        if child is None:
            child = self.found[labels] = self.metric.labels(*labels)
        return child


requests_of, latency_of = Children(REQUESTS), Children(LATENCY)
session_moves_of, moves_applied_of = Children(SESSION_MOVES), Children(MOVES_APPLIED)
redis_latency_of, upstream_latency_of = Children(REDIS_LATENCY), Children(UPSTREAM_LATENCY)


def _write(items: list) -> None:
    for write, args in items:
        try:
            write(*args)
        except Exception:  # noqa: BLE001 (one bad write must not lose the others)
            log.exception("a metric write failed: %s", getattr(write, "__name__", write))


WRITES = Batches(_write, "metric-writes")


def later(write, *args) -> None:
    """``write(*args)``, a metric update, in this process's next batch of writes."""
    WRITES.add((write, args))


def mode_label(mode) -> str:
    return mode if mode in MODES else "other"


def exposition(*collectors) -> bytes:
    """The text exposition: every worker's metrics, then ``collectors`` read now."""
    WRITES.flush()  # this process's waiting writes (another worker's come within 0.1 s)
    text = generate_latest(scraped_registry())
    if collectors:
        extra = CollectorRegistry(auto_describe=False)
        for collector in collectors:
            extra.register(collector)
        text += generate_latest(extra)
    return text


def scraped_registry() -> CollectorRegistry:
    """What a scrape reads: every worker's files in multiprocess mode, else this process's."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


def bot_worker_at_zero(games) -> None:
    """The bot worker's series at 0 from its start (as every server's: referee.series)."""
    for game in games:
        for lane in BOT_LANES:
            BOTWORKER_MOVES.labels(game, lane)
    for reason in BOT_ERROR_REASONS:
        BOTWORKER_ERRORS.labels(reason)
    for lane in BOT_LANES:
        BOTWORKER_LAG.labels(lane)


def bot_decided(game: str) -> None:
    """One move chosen by a bot (``referee_bot_decisions_total``)."""
    BOT_DECISIONS.labels(game).inc()


# ---------------------------------------------------------------------- Redis
def time_redis(client) -> None:
    """Time every command of ``client`` (scripts included) and count its errors.

    A wrapper on the client's one entry point, ``execute_command``, installed at
    app creation: the session store and the rate limit stay as they are.
    NOSCRIPT is not an error: redis-py loads the script and runs it again.
    """
    execute = client.execute_command
    if getattr(execute, "_timed", False):
        return

    def timed(*args, **options):
        began = time.perf_counter()
        try:
            return execute(*args, **options)
        except NoScriptError:
            raise
        except RedisError as exc:
            REDIS_ERRORS.labels(command_label(args[0] if args else "?"),
                                type(exc).__name__).inc()
            raise
        finally:
            # the command's name alone waits (its arguments can be a whole state)
            later(_observe_redis, args[0] if args else "?", time.perf_counter() - began)

    timed._timed = True
    client.execute_command = timed


def command_label(command) -> str:
    return str(command).upper()


def _observe_redis(command, seconds: float) -> None:
    redis_latency_of(command_label(command)).observe(seconds)


class LiveSessions:
    """How many sessions are live: a Redis sorted set of session ids scored by
    their last write, counted within the session TTL (as Redis expires them).

    Nothing on the move path waits on Redis: a worker notes ids in memory, and the
    Redis probe (:class:`referee.sessions.probe.RedisProbe`, once a second) writes them
    in one pipeline and counts, with its own short timeout; a scrape reads the count.
    """

    KEY = "referee:live-sessions"

    def __init__(self, ttl: int):
        self.ttl = int(ttl)
        self._noted: dict[str, float | None] = {}  # id → last write; None: ended
        self._lock = threading.Lock()
        self.counted: int | None = None  # at the last probe (None: not counted yet)

    def touch(self, sid: str) -> None:
        with self._lock:
            self._noted[sid] = time.time()

    def end(self, sid: str) -> None:
        with self._lock:
            self._noted[sid] = None

    def flush(self, client) -> None:
        with self._lock:
            noted, self._noted = self._noted, {}
        if not noted:
            return
        touched = {sid: at for sid, at in noted.items() if at is not None}
        ended = [sid for sid, at in noted.items() if at is None]
        pipe = client.pipeline(transaction=False)
        if touched:
            pipe.zadd(self.KEY, touched)
        if ended:
            pipe.zrem(self.KEY, *ended)
        pipe.zremrangebyscore(self.KEY, "-inf", time.time() - self.ttl)
        pipe.expire(self.KEY, self.ttl)
        try:
            pipe.execute()
        except RedisError as exc:
            REDIS_ERRORS.labels("PIPELINE", type(exc).__name__).inc()
            with self._lock:  # keep them for the next flush, newer notes first
                self._noted = {**noted, **self._noted}
            raise

    def refresh(self, client) -> None:
        """Write what was noted, then count (a task of the Redis probe)."""
        self.flush(client)
        self.counted = int(client.zcount(self.KEY, time.time() - self.ttl, "+inf"))


def probed(up: bool, failed: bool) -> None:
    """What the Redis probe found (its ``on_result``)."""
    if failed:
        REDIS_PROBE_FAILURES.inc()


class SessionStoreCollector:
    """Read at scrape time by the gateway, from what the Redis probe found last: a scrape
    never waits on Redis."""

    def __init__(self, live: LiveSessions | None, probe):
        self.live, self.probe = live, probe

    def collect(self):
        up = self.probe.reachable
        yield GaugeMetricFamily("referee_redis_up",
                                "1 when this gateway's last probes of Redis were answered",
                                value=int(up))
        if up and self.live is not None and self.live.counted is not None:
            yield GaugeMetricFamily(
                "referee_sessions_live",
                "Sessions written within their TTL (the same number from every gateway)",
                value=self.live.counted)


# ----------------------------------------------------------- the game services
def watch_upstream(upstream) -> None:
    """Time the gateway's calls to each game service and count their failures."""
    raw, down = upstream.raw, upstream._down

    def timed_raw(game, *args, **kwargs):
        began = time.perf_counter()
        try:
            return raw(game, *args, **kwargs)
        finally:
            if game in upstream.services:  # a name the caller chose is never a label
                later(_observe_upstream, game, time.perf_counter() - began)

    def counted_down(game, why):
        # an exception's own reason (the upstream client's CallFailed), else its class
        reason = getattr(why, "reason", None) or type(why).__name__ \
            if isinstance(why, BaseException) else "bad_answer"
        UPSTREAM_FAILURES.labels(game, reason).inc()
        return down(game, why)

    upstream.raw, upstream._down = timed_raw, counted_down


def _observe_upstream(game: str, seconds: float) -> None:
    upstream_latency_of(game).observe(seconds)
