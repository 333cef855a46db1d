"""The bot worker: plays the bot seats of every session, in a process of its own.

``python -m referee_gateway.botworker`` (``make run`` starts one; on Kubernetes it is the
``bots`` Deployment, scaled by replicas). It never serves a request, so a bot's thinking
never holds a request worker of the gateway; the thinking itself is the game service's
``/v1/bot-move``, bounded by ``BOT_BUDGET_MS``.

Which sessions: a sorted set in Redis (:func:`referee.sessions.keys.bot_tables`) holds every
session with a bot seat, scored by when the worker looks next; the gateway adds a session
when a bot takes a seat, and every change of such a session marks it due at once (so a
worker that was down, or missed the announcement, finds it at its next sweep). The worker
listens on the bot channel (:data:`referee.sessions.keys.BOT_CHANNEL`: every change of a
session with a bot seat is announced there, so the next seat may be a bot's; the other
sessions' moves never reach the worker) and sweeps the due sessions every
``BOT_SWEEP_SECONDS`` (2), at once when it starts.

Fair shares (issue 28): tables with a person and tables of bots only are played by two
threads of their own (lanes), so bots playing themselves never delay a bot a person waits
for, however many such tables there are. In each lane tables take turns, one bot move each.
Replicas share the work through a per-session lock (it expires a budget and 2 s after it
was taken, so a killed worker's table is free soon); a bot's move lands by the same
compare-and-set as a person's, so a move that raced another change is simply chosen again.

No crash: whatever a table's move meets — the session deleted meanwhile, a lost race, a
game service or Redis that does not answer, an answer not foreseen — is a warning, that
table is looked at again later, and the other tables play on.

What the operator sees (issue 31): on ``METRICS_PORT`` (9100; 0: none) the worker serves
``/metrics`` — its moves by game and lane, its errors by reason and, as a histogram, each
bot's lag: from the table's due mark (the change that made it a bot's turn) to the bot's move
landing, thinking included (:data:`referee.metrics.BOTWORKER_LAG`). The lag is what the
``bots`` Deployment scales on and alerts on. Its liveness is the heartbeat file's age, read
by ``find`` in the pod (no Python started) or by ``--alive``.

What a bot sees: its seat's view (``/v1/view``), nothing else — the same view its seat's
token would get. The move is then played on the whole state by ``/v1/apply``, like any move.
"""

import argparse
import logging
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path

from prometheus_client import start_http_server
from redis.exceptions import RedisError
from referee import logs, metrics
from referee.errors import RefereeError, UnknownSession
from referee.sessions import keys
from referee.sessions.store import SessionStore, connect

from . import config
from .redacted import for_watchers, pushed_events
from .upstream import Upstream

log = logging.getLogger("referee.bots")

#: the most bot-channel messages read between two sweeps' checks (a flood of bot tables'
#: changes must not keep the worker from sweeping)
MAX_MESSAGES_A_TURN = 500
#: the most due tables one sweep hands over
SWEEP_LIMIT = 1000
#: a session whose bots are not to move is looked at again after this long anyway (each
#: change of the session marks it due at once: this is only a safety net)
IDLE_RECHECK_SECONDS = 60
#: a table whose move failed (a service down, a bug) is looked at again after this long
FAILED_RECHECK_SECONDS = 5
#: seconds the worker waits after the session store did not answer
REDIS_RETRY_SECONDS = 1
#: ``--alive`` fails when the worker's loop has not touched its heartbeat file for this long
ALIVE_SECONDS = 30


class BotWorker:
    def __init__(self, store: SessionStore, upstream: Upstream, budget_ms: int = 1000,
                 sweep_seconds: float = 2.0, heartbeat: str | None = None):
        self.store, self.upstream, self.heartbeat = store, upstream, heartbeat
        self.budget_ms, self.sweep_seconds = budget_ms, sweep_seconds
        self.name = f"{socket.gethostname()}:{os.getpid()}"
        self.stopping = threading.Event()
        self.moves = 0  # bot moves landed (tests and logs count them)
        # tables with a person, and tables of bots only: a thread (lane) each
        self.people, self.bots_only = Lane("people"), Lane("bots-only")
        self.only_bots: dict[str, bool] = {}  # session → no person at it (learnt at load)
        # session → when its bot's turn began (its first due mark since its last bot move:
        # a failed try marks it due later, the turn still began then)
        self.due_since: dict[str, float] = {}

    def lane_of(self, sid: str) -> "Lane":
        """Where a table waits: unknown ones with the people (their first look is quick:
        a table of bots only is handed over before its bot thinks)."""
        return self.bots_only if self.only_bots.get(sid) else self.people

    # ------------------------------------------------------------------ one session
    def play(self, sid: str, lane: "Lane | None" = None) -> bool:
        """Make the bot move due in the session now, if one is. True when one was made (it
        landed, or lost a race to another change) or the table belongs to another lane
        than ``lane``: look again then."""
        # A lock a killed worker held frees itself a budget and 2 s later; one that
        # expires while its holder still thinks costs only thinking twice (compare-and-set).
        if not self.store.lock_bot(sid, self.name, seconds=self.budget_ms / 1000 + 2):
            return False  # another replica is at it
        try:
            return not self.stopping.is_set() and self._one_move(sid, lane)
        finally:
            self.store.unlock_bot(sid)

    def _one_move(self, sid: str, lane: "Lane | None") -> bool:
        try:
            session = self.store.load(sid)
        except UnknownSession:  # deleted or expired: nothing to watch any more
            self.forget(sid)
            return False
        players = range(1, int(session.meta["players"]) + 1)
        self.only_bots[sid] = all(session.seat_status(s) == "bot" for s in players)
        if lane is not None and self.lane_of(sid) is not lane:
            return True  # handed over before any thinking
        seat = next((s for s in session.state["to_move"]
                     if s != "chance" and session.started and session.bot_level(s)), None)
        if seat is None:
            self.due_since.pop(sid, None)
            if not any(session.bot_level(s) for s in players):
                self.forget(sid)  # every bot was taken back
            else:
                self.store.watch_bots(sid, at=time.time() + IDLE_RECHECK_SECONDS)
            return False
        marked = self.store.bot_due_at(sid)
        self.due_since.setdefault(sid, min(marked or time.time(), time.time()))
        game, state, level = session.game, session.state, session.bot_level(seat)
        try:
            view = self.upstream.call(game, "/v1/view", {"state": state, "seat": seat})["view"]
            chosen = self.upstream.call(game, "/v1/bot-move", {
                "view": view, "seat": seat, "level": level, "budget_ms": self.budget_ms,
                "seed": state["version"]})["move"]
            result = self.upstream.call(game, "/v1/apply", for_watchers(
                self.store, sid, {"state": state, "move": chosen}))
        except RefereeError as error:  # a service down, or (a bug) a refused move: later
            metrics.BOTWORKER_ERRORS.labels("upstream").inc()
            log.warning("bot for %s seat %s: %s", sid, seat, error.problem().get("detail"))
            self.store.watch_bots(sid, at=time.time() + FAILED_RECHECK_SECONDS)
            return False
        new = result["state"]
        logged = {k: v for k, v in result["move"].items() if k != "text"}
        entry = {"version": new["version"], "move": logged, "events": result["events"],
                 "by": f"bot:{seat}", "at": round(time.time(), 3)}
        pushed = pushed_events(entry, result.get("redacted", []), new["to_move"])
        if self.store.commit(session, new, entry, pushed=pushed):  # UnknownSession: see play_safely
            landed = time.time()
            self.moves += 1
            lane_name = self.lane_of(sid).name
            metrics.BOTWORKER_MOVES.labels(game, lane_name).inc()
            metrics.BOTWORKER_LAG.labels(lane_name).observe(
                landed - self.due_since.pop(sid, landed))
            # the next seat's turn begins now (the commit's own mark keeps an earlier one)
            self.store.watch_bots(sid, at=landed)
            log.info("bot (%s) for %s seat %s: version %s", level, sid, seat, new["version"])
        return True  # landed, or lost a race: either way look again

    def forget(self, sid: str) -> None:
        self.store.unwatch_bots(sid)
        self.only_bots.pop(sid, None)
        self.due_since.pop(sid, None)

    def play_safely(self, sid: str, lane: "Lane | None" = None) -> bool:
        """:meth:`play`, with whatever it meets a warning, never the worker's end: this
        table waits, the others play on."""
        try:
            return self.play(sid, lane)
        except UnknownSession:  # deleted while its bot thought: the commit found it gone
            self.due_since.pop(sid, None)
            log.warning("bot for %s: the session ended while its move was made", sid)
            self._quietly(self.forget, sid)
        except RedisError as error:  # a restart, a failover: the sweep finds it again
            metrics.BOTWORKER_ERRORS.labels("store").inc()
            log.warning("bot for %s: the session store did not answer (%s); trying again "
                        "in %d s", sid, error, REDIS_RETRY_SECONDS)
            self.stopping.wait(REDIS_RETRY_SECONDS)
        except Exception as error:  # noqa: BLE001 (one table's trouble, not everyone's)
            metrics.BOTWORKER_ERRORS.labels("other").inc()
            log.warning("bot for %s: %r; looking again in %d s", sid, error,
                        FAILED_RECHECK_SECONDS, exc_info=True)
            self._quietly(self.store.watch_bots, sid, at=time.time() + FAILED_RECHECK_SECONDS)
        return False

    @staticmethod
    def _quietly(action, *args, **kwargs) -> None:
        try:
            action(*args, **kwargs)
        except RedisError:  # the sweep, or the next change, brings the table back
            pass

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        """Until :meth:`stop`: this thread hands the tables the bot channel announces and
        the sweep finds due to their lanes; each lane's thread plays them in turn."""
        lanes = [threading.Thread(target=self._play_lane, args=(lane,), daemon=True,
                                  name=f"bots-{lane.name}")
                 for lane in (self.people, self.bots_only)]
        for thread in lanes:
            thread.start()
        pubsub = self.store.client.pubsub(ignore_subscribe_messages=True)
        next_sweep = 0.0  # at once: a restarted worker finds every due table
        subscribed = False  # (redis-py subscribes again by itself after a reconnection)
        try:
            while not self.stopping.is_set():
                if self.heartbeat:  # the liveness check (--alive) reads its age
                    Path(self.heartbeat).touch()
                try:
                    if not subscribed:  # here: Redis may be down when the worker starts
                        pubsub.subscribe(keys.BOT_CHANNEL)
                        subscribed = True
                    self._listen(pubsub, wait=min(self.sweep_seconds, 0.5))
                    if time.monotonic() >= next_sweep:
                        for sid in self.store.bot_tables_due(limit=SWEEP_LIMIT):
                            self.lane_of(sid).add(sid)
                        next_sweep = time.monotonic() + self.sweep_seconds
                except RedisError as error:  # a restart, a failover: no move is lost (the
                    # sweep finds every due table again), so wait and go on, not crash
                    log.warning("bot worker: the session store did not answer (%s); "
                                "trying again in %d s", error, REDIS_RETRY_SECONDS)
                    self.stopping.wait(REDIS_RETRY_SECONDS)
        finally:
            self.stopping.set()
            for lane in (self.people, self.bots_only):
                lane.wake()
            for thread in lanes:
                thread.join(self.budget_ms / 1000 + 15)
            pubsub.close()

    def _play_lane(self, lane: "Lane") -> None:
        while not self.stopping.is_set():
            sid = lane.take(timeout=0.5)
            if sid is not None and self.play_safely(sid, lane):
                self.lane_of(sid).add(sid)  # its next move, if any, after the other tables'

    def _listen(self, pubsub, wait: float) -> None:
        """Hand the bot tables the channel announced to their lanes (waiting up to ``wait``
        seconds for the first message)."""
        for _ in range(MAX_MESSAGES_A_TURN):
            message = pubsub.get_message(timeout=wait)
            if message is None:
                return
            wait = 0.0
            if message.get("type") == "message":
                sid = message["data"].split(" ")[0]
                self.lane_of(sid).add(sid)

    def stop(self, *_):
        self.stopping.set()


class Lane:
    """Tables due for one thread, in the order they became due, each once."""

    def __init__(self, name: str):
        self.name = name
        self._due: dict[str, None] = {}
        self._changed = threading.Condition()

    def __len__(self) -> int:
        return len(self._due)

    def add(self, sid: str) -> None:
        with self._changed:
            self._due.setdefault(sid)
            self._changed.notify()

    def take(self, timeout: float) -> str | None:
        """The table due longest, or None after ``timeout`` seconds without one."""
        with self._changed:
            if not self._due:
                self._changed.wait(timeout)
            if not self._due:
                return None
            sid = next(iter(self._due))
            del self._due[sid]
            return sid

    def wake(self) -> None:
        with self._changed:
            self._changed.notify_all()


def serve_metrics(port: int, games) -> None:
    """``/metrics`` on ``port`` (0: none), from a thread of prometheus_client's, every series
    at 0 from the start. The address is the host of ``BIND`` (the image's 0.0.0.0; loopback
    when unset, as under ``make run``)."""
    if not port:
        return
    # The image sets PROMETHEUS_MULTIPROC_DIR for gunicorn's workers: this one process writes
    # its files there too (referee.metrics) and the scrape reads them. A restarted container
    # is pid 1 again: it goes on with its own file, so its counters never go back.
    metrics.bot_worker_at_zero(sorted(games))
    host = os.environ.get("BIND", "127.0.0.1:0").rpartition(":")[0] or "0.0.0.0"
    start_http_server(port, host, registry=metrics.scraped_registry())
    log.info("bot worker metrics on %s:%d/metrics", host, port)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m referee_gateway.botworker",
        description="Play the bot seats of every session (the gateway's REDIS_URL, "
                    "REDIS_CLUSTER and GAME_SERVICES settings).")
    parser.add_argument("--budget-ms", type=int,
                        default=int(os.environ.get("BOT_BUDGET_MS", 1000)),
                        help="how long a bot thinks per move (default 1000, env BOT_BUDGET_MS)")
    parser.add_argument("--sweep-seconds", type=float,
                        default=float(os.environ.get("BOT_SWEEP_SECONDS", 2)),
                        help="how often every bot session is looked at (default 2)")
    parser.add_argument("--alive", action="store_true",
                        help="exit 0 if a worker's loop ran in the last "
                             f"{ALIVE_SECONDS} s (its BOT_HEARTBEAT_FILE), else 1")
    args = parser.parse_args(argv)
    heartbeat = os.environ.get("BOT_HEARTBEAT_FILE")
    if args.alive:
        try:
            return 0 if time.time() - os.path.getmtime(heartbeat or "") < ALIVE_SECONDS else 1
        except OSError:
            return 1
    logs.configure(os.environ.get("LOG_LEVEL", "info"))  # JSON lines, as the servers write
    settings = config.from_environment()
    store = SessionStore(connect(settings["REDIS_URL"], cluster=settings["REDIS_CLUSTER"]),
                         settings["SESSION_TTL_SECONDS"])
    upstream = Upstream(settings["GAME_SERVICES"], settings["UPSTREAM_CONNECT_TIMEOUT"],
                        settings["UPSTREAM_READ_TIMEOUT"], settings["RETRY_AFTER_SECONDS"])
    worker = BotWorker(store, upstream, args.budget_ms, args.sweep_seconds, heartbeat)
    serve_metrics(int(os.environ.get("METRICS_PORT", "9100")), settings["GAME_SERVICES"])
    signal.signal(signal.SIGTERM, worker.stop)
    signal.signal(signal.SIGINT, worker.stop)
    log.info("bot worker %s: budget %d ms per move", worker.name, args.budget_ms)
    worker.run()
    log.info("bot worker %s stopped after %d moves", worker.name, worker.moves)
    return 0


if __name__ == "__main__":
    sys.exit(main())
