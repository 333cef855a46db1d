"""Whether Redis answers, known without waiting on it.

A thread of each gateway process (a greenlet under gevent) pings Redis every ``every``
seconds on a client of its own with a short timeout, and runs its ``tasks`` after each
answer (the live-sessions count). What it learned is read at once by ``/metrics``,
``/readyz`` and :meth:`RedisProbe.guard`: after ``trip`` probes in a row got no answer,
every command of the guarded client fails at once with :class:`StoreDown` (a 503 with
``Retry-After``) instead of waiting out its timeout; the first probe answered again lets
them through. Two in a row, not one: a probe starved of CPU for an instant (a busy
gevent worker) must not refuse a whole worker's sessions.
"""

import logging
import os
import threading
import time
from collections.abc import Callable

import redis

log = logging.getLogger(__name__)


class StoreDown(redis.ConnectionError):
    """Refused without asking Redis: its last probe got no answer."""


class RedisProbe:
    def __init__(self, client, every: float = 1.0, on_result: Callable | None = None,
                 trip: int = 2, background: bool = True):
        self.client, self.every, self.trip = client, float(every), int(trip)
        self.background = background  # False: only probe() by hand (a test's)
        self.failures = 0  # probes in a row without an answer
        self.tasks: list[Callable] = []  # each called with the probe's client after a ping
        self.on_result = on_result  # (up, failed) after each probe: the metrics
        self.up = True  # until a probe says otherwise: a fresh worker serves at once
        self.error: str | None = None
        self.answered = time.monotonic()  # when Redis last answered a probe
        self.down_since: float | None = None
        self._thread: threading.Thread | None = None
        self._pid = None
        self._stop = threading.Event()

    # ------------------------------------------------------------ what it says
    @property
    def stale(self) -> bool:
        """No probe answered lately (the probe itself is stuck): say so, never 'up'."""
        return time.monotonic() - self.answered > 3 * self.every + 2 * self.timeout

    @property
    def timeout(self) -> float:
        pool = getattr(self.client, "connection_pool", None)
        kwargs = getattr(pool, "connection_kwargs", {})
        return float(kwargs.get("socket_timeout") or self.every)

    @property
    def reachable(self) -> bool:
        if self._pid != os.getpid() and self.background:  # forked, or never started
            self.start()
        return self.up and not self.stale

    def status(self) -> dict:
        if self.reachable:
            return {"redis": "up"}
        down = time.monotonic() - (self.down_since or self.answered)
        return {"redis": "down", "down_seconds": round(down, 1),
                "error": self.error or "no probe answered lately"}

    # ------------------------------------------------------------- the thread
    def start(self) -> "RedisProbe":
        """Probe in the background (again after a fork: a thread does not survive one)."""
        if self._pid == os.getpid() and self._thread is not None:
            return self
        self._pid = os.getpid()
        self._thread = threading.Thread(target=self._run, daemon=True, name="redis-probe")
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.is_set():
            began = time.monotonic()
            self.probe()
            self._stop.wait(max(0.0, self.every - (time.monotonic() - began)))

    def probe(self) -> bool:
        """One ping (and the tasks); what it found is kept and reported."""
        try:
            ping(self.client)
            for task in self.tasks:
                task(self.client)
        except Exception as exc:  # noqa: BLE001 (a cluster's own errors too: never die)
            self.failures += 1
            self.error = type(exc).__name__
            if self.up and self.failures >= self.trip:
                log.warning("redis: no answer to %d probes (%r); session routes answer 503 "
                            "until it answers again", self.failures, exc)
                self.up, self.down_since = False, time.monotonic()
            failed = True
        else:
            if not self.up:
                log.warning("redis: the probe is answered again after %.1f s",
                            time.monotonic() - (self.down_since or time.monotonic()))
            self.up, self.error, self.down_since, self.failures = True, None, None, 0
            self.answered = time.monotonic()
            failed = False
        if self.on_result is not None:
            self.on_result(self.up, failed)
        return not failed

    # ------------------------------------------------------- the fast refusal
    def guard(self, client) -> None:
        """Every command of ``client`` fails at once while Redis is known down."""
        execute = client.execute_command
        if getattr(execute, "_guarded", False):
            return

        def guarded(*args, **options):
            if not self.reachable:
                raise StoreDown("the session store did not answer its last probe")
            return execute(*args, **options)

        guarded._guarded = True
        client.execute_command = guarded


def ping(client) -> None:
    """PING Redis; on a Cluster each master in turn, each on its own connection: a
    cluster client's failed command re-reads the slots from every node first (seconds,
    where a probe has half of one)."""
    primaries = getattr(client, "get_primaries", None)
    nodes = [node.redis_connection for node in primaries()] if primaries else [None]
    if None in nodes:  # a node not connected yet: the client's own way
        client.ping()
        return
    for node in nodes:
        node.ping()
