"""The bot worker: plays the bot seats of every session, in a process of its own.

``python -m referee_gateway.botworker`` (``make run`` starts one; on Kubernetes it is the
``bots`` Deployment, scaled by replicas). It never serves a request, so a bot's thinking
never holds a request worker of the gateway; the thinking itself is the game service's
``/v1/bot-move``, bounded by ``BOT_BUDGET_MS``.

Which sessions: a sorted set in Redis (:func:`referee.sessions.keys.bot_tables`) holds every
session with a bot seat; the gateway adds a session when a bot takes a seat. The worker
listens on the bot channel (:data:`referee.sessions.keys.BOT_CHANNEL`: every change of a
session with a bot seat is announced there, so the next seat may be a bot's; the other
sessions' moves never reach the worker) and sweeps the set every ``BOT_SWEEP_SECONDS`` (a
lost message, a restarted worker: no game stalls). Tables
take turns: a worker makes one bot move at a table, then goes on to the next table due, so a
table of bots only, playing itself for minutes, delays another table's bot by one move at
most. Replicas share the work through a per-session lock; a bot's move lands by the same
compare-and-set as a person's, so a move that raced another change is simply chosen again.

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

from redis.exceptions import RedisError
from referee import logs
from referee.errors import RefereeError, UnknownSession
from referee.sessions import keys
from referee.sessions.store import SessionStore, connect

from . import config
from .upstream import Upstream

log = logging.getLogger("referee.bots")

#: the most bot-channel messages read between two bot moves (a flood of bot tables'
#: changes must not keep the worker from playing)
MAX_MESSAGES_A_TURN = 500
#: a session whose bots are not to move is looked at again after this long anyway
IDLE_RECHECK_SECONDS = 60
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

    # ------------------------------------------------------------------ one session
    def play(self, sid: str) -> bool:
        """Make the bot move due in the session now, if one is. True when one was made (it
        landed, or lost a race to another change): another may be due then."""
        if not self.store.lock_bot(sid, self.name, seconds=self.budget_ms / 1000 * 3 + 10):
            return False  # another replica is at it
        try:
            return not self.stopping.is_set() and self._one_move(sid)
        finally:
            self.store.unlock_bot(sid)

    def _one_move(self, sid: str) -> bool:
        try:
            session = self.store.load(sid)
        except UnknownSession:  # deleted or expired: nothing to watch any more
            self.store.unwatch_bots(sid)
            return False
        seat = next((s for s in session.state["to_move"]
                     if s != "chance" and session.started and session.bot_level(s)), None)
        if seat is None:
            if not any(session.bot_level(s) for s in range(1, int(session.meta["players"]) + 1)):
                self.store.unwatch_bots(sid)  # every bot was taken back
            else:
                self.store.watch_bots(sid, at=time.time() + IDLE_RECHECK_SECONDS)
            return False
        game, state, level = session.game, session.state, session.bot_level(seat)
        try:
            view = self.upstream.call(game, "/v1/view", {"state": state, "seat": seat})["view"]
            chosen = self.upstream.call(game, "/v1/bot-move", {
                "view": view, "seat": seat, "level": level, "budget_ms": self.budget_ms,
                "seed": state["version"]})["move"]
            result = self.upstream.call(game, "/v1/apply", {"state": state, "move": chosen})
        except RefereeError as error:  # a service down, or (a bug) a refused move: later
            log.warning("bot for %s seat %s: %s", sid, seat, error.problem().get("detail"))
            self.store.watch_bots(sid, at=time.time() + 5)
            return False
        new = result["state"]
        logged = {k: v for k, v in result["move"].items() if k != "text"}
        entry = {"version": new["version"], "move": logged, "events": result["events"],
                 "by": f"bot:{seat}", "at": round(time.time(), 3)}
        if self.store.commit(session, new, entry):
            self.moves += 1
            log.info("bot (%s) for %s seat %s: version %s", level, sid, seat, new["version"])
        return True  # landed, or lost a race: either way look again

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        """Until :meth:`stop`: the tables the bot channel announces and the sweep finds
        due take turns, one bot move each."""
        pubsub = self.store.client.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(keys.BOT_CHANNEL)
        due: dict[str, None] = {}  # tables to look at, in the order they became due
        next_sweep = 0.0
        try:
            while not self.stopping.is_set():
                if self.heartbeat:  # the liveness check (--alive) reads its age
                    Path(self.heartbeat).touch()
                try:
                    self._listen(pubsub, due,
                                 wait=0.0 if due else min(self.sweep_seconds, 1.0))
                    if time.monotonic() >= next_sweep:
                        for sid in self.store.bot_tables_due():
                            due.setdefault(sid)
                        next_sweep = time.monotonic() + self.sweep_seconds
                    if due:
                        sid = next(iter(due))
                        del due[sid]
                        if self.play(sid):
                            due[sid] = None  # its next move, if any, after the other tables'
                except RedisError as error:  # a restart, a failover: no move is lost (the
                    # sweep finds every due table again), so wait and go on, not crash
                    log.warning("bot worker: the session store did not answer (%s); "
                                "trying again in %d s", error, REDIS_RETRY_SECONDS)
                    self.stopping.wait(REDIS_RETRY_SECONDS)
        finally:
            pubsub.close()

    def _listen(self, pubsub, due: dict, wait: float) -> None:
        """Add to ``due`` the bot tables the channel announced (waiting up to ``wait``
        seconds for the first message)."""
        for _ in range(MAX_MESSAGES_A_TURN):
            message = pubsub.get_message(timeout=wait)
            if message is None:
                return
            wait = 0.0
            if message.get("type") == "message":
                due.setdefault(message["data"].split(" ")[0])

    def stop(self, *_):
        self.stopping.set()


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
    signal.signal(signal.SIGTERM, worker.stop)
    signal.signal(signal.SIGINT, worker.stop)
    log.info("bot worker %s: budget %d ms per move", worker.name, args.budget_ms)
    worker.run()
    log.info("bot worker %s stopped after %d moves", worker.name, worker.moves)
    return 0


if __name__ == "__main__":
    sys.exit(main())
