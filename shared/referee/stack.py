"""Serve the whole referee on one machine: ``make run`` (``python -m referee.stack``).

Starts an embedded Redis (unless ``REDIS_URL`` is set), every installed game
service and the gateway under gunicorn, waits until each answers ``/readyz``,
and stops all of it on Ctrl-C. Tests and benchmarks use :class:`Stack` too.

It supervises what it started as a process manager would (issue 28): a process that dies
is started again after a backoff (1, 2, 4 … seconds, at most ``RESTART_BACKOFF_MAX``), and
the launcher says so; only Ctrl-C or SIGTERM stops the stack, and then every process it
started, each server's workers with it.
"""

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from importlib.metadata import entry_points
from pathlib import Path

from .catalog import GAME_PORTS
from .embedded import EmbeddedRedis, free_port, port_is_free
from .gunicorn_conf import memory_directory


def installed_games() -> dict[str, str]:
    """``{game: "package.service:create_app()"}`` for every registered engine."""
    return {ep.name: f"{ep.module.split('.')[0]}.service:create_app()"
            for ep in sorted(entry_points(group="referee.games"), key=lambda e: e.name)}


def wait_until(ready, process: subprocess.Popen, name: str, timeout: float = 60) -> None:
    """Until ``ready()`` is true; fails if ``process`` exits or ``timeout`` passes first."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if ready():
                return
        except OSError:
            pass
        if process.poll() is not None:
            raise RuntimeError(f"{name}: the server exited with code {process.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} did not become ready in {timeout:.0f} s")
        time.sleep(0.1)


def wait_ready(url: str, process: subprocess.Popen, timeout: float = 60) -> None:
    def answers() -> bool:
        with urllib.request.urlopen(url + "/readyz", timeout=2) as answer:
            return answer.status == 200
    wait_until(answers, process, url, timeout)


def wait_alive(heartbeat: str, process: subprocess.Popen, timeout: float = 60) -> None:
    """Until ``process`` has touched its ``heartbeat`` file (the bot worker's loop does)."""
    started = time.time() - 1
    wait_until(lambda: os.path.getmtime(heartbeat) >= started, process, "the bot worker",
               timeout)


#: the longest a dead process waits to be started again (the wait doubles from 1 s)
RESTART_BACKOFF_MAX = 30
#: a process that ran this long before it died is a new fault: its wait starts at 1 s again
STEADY_SECONDS = 60


class Stack:
    """Redis + every game service + the gateway, as real processes."""

    def __init__(self, host="127.0.0.1", port=8000, workers=2, threads=4, redis_url=None,
                 data_dir=None, fixed_ports=False, log=print, env=None, games=None,
                 output_dir=None):
        self.host, self.port, self.log = host, port, log
        # where each process writes its lines, one file per name (None: this terminal)
        self.output_dir = output_dir
        self.games = games  # the game services to start (None: every installed game)
        self.redis_url, self.data_dir, self.fixed_ports = redis_url, data_dir, fixed_ports
        self.env = {**os.environ, "WEB_CONCURRENCY": str(workers),
                    "GUNICORN_THREADS": str(threads), **(env or {})}
        self.redis = None
        self.processes: dict[str, subprocess.Popen] = {}
        self.commands: dict[str, tuple[list[str], dict]] = {}  # how each was started
        self.started_at: dict[str, float] = {}
        self.failures: dict[str, int] = {}  # deaths in a row (each ran under STEADY_SECONDS)
        self.restart_at: dict[str, float] = {}  # dead ones waiting out their backoff
        self.service_urls: dict[str, str] = {}
        self.metrics_urls: dict[str, str] = {}  # each server's /metrics (its own port)
        # the servers' metrics directories and the bot worker's heartbeat file
        self.scratch = tempfile.TemporaryDirectory(prefix="referee-stack-",
                                                   dir=memory_directory())

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def _gunicorn(self, name, app, port, env):
        binds = ["-b", f"{self.host}:{port}"]
        if env.get("METRICS_PORT") != "0":  # a metrics port and a multiprocess directory each
            metrics_port = free_port()
            binds += ["-b", f"{self.host}:{metrics_port}"]
            self.metrics_urls[name] = f"http://{self.host}:{metrics_port}/metrics"
            env = dict(env, METRICS_PORT=str(metrics_port), PROMETHEUS_MULTIPROC_DIR=str(
                Path(self.scratch.name, name)))
        return self._spawn(name, [
            sys.executable, "-m", "gunicorn", "-c", "python:referee.gunicorn_conf", *binds,
            "--name", f"referee-{name}", app], env)

    def _spawn(self, name: str, command: list[str], env: dict) -> subprocess.Popen:
        output = None
        if self.output_dir:  # appended: a restarted process's lines follow its last ones
            output = open(Path(self.output_dir, f"{name}.log"), "ab")  # noqa: SIM115
        try:
            process = subprocess.Popen(
                command, env=env, stdout=output, stderr=output,
                start_new_session=True)  # Ctrl-C reaches the launcher, which stops them
        finally:
            if output:
                output.close()  # the child has its own copy
        self.processes[name] = process
        self.commands[name] = (command, env)
        self.started_at[name] = time.monotonic()
        return process

    # ------------------------------------------------------------------ supervision
    def supervise(self, stopping=lambda: False, every: float = 0.2) -> None:
        """Until ``stopping()``: every process that dies is started again (``check``)."""
        while not stopping():
            self.check()
            time.sleep(every)

    def check(self) -> None:
        """Note each process that died and start each whose backoff is over, saying so."""
        now = time.monotonic()
        for name in self._dead():
            if name in self.restart_at:
                continue
            ran = now - self.started_at.get(name, now)
            failures = 0 if ran >= STEADY_SECONDS else self.failures.get(name, 0)
            self.failures[name] = failures + 1
            wait = min(2 ** failures, RESTART_BACKOFF_MAX)
            self.restart_at[name] = now + wait
            code = "" if name == "redis" else f" with code {self.processes[name].returncode}"
            self.log(f"{name} exited{code} after {ran:.0f} s; starting it again in {wait} s")
        for name, at in list(self.restart_at.items()):
            if now >= at:
                del self.restart_at[name]
                try:
                    self.restart(name)
                except RuntimeError as error:  # it died again at once: the next backoff
                    self.log(f"{name} did not start again: {error}")
                    continue
                self.log(f"{name} started again")

    def _dead(self) -> list[str]:
        dead = [name for name, process in self.processes.items() if process.poll() is not None]
        if self.redis and self.redis.process and self.redis.process.poll() is not None:
            dead.append("redis")
        return dead

    def restart(self, name: str) -> None:
        """Start a dead process again as it was started (the same port, the same settings)."""
        if name == "redis":
            self.started_at[name] = time.monotonic()
            self.redis.start()
            return
        old = self.processes[name]
        # a killed gunicorn master leaves its workers, which hold its port: gone with it
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(old.pid, signal.SIGKILL)
        self._spawn(name, *self.commands[name])

    def start(self) -> "Stack":
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self):
        if not self.redis_url:
            self.redis = EmbeddedRedis(self.data_dir).start()
            self.redis_url = self.redis.url
            where = f"data in {self.data_dir}" if self.data_dir else "in memory"
            self.log(f"embedded Redis on {self.redis_url} ({where})")
        else:
            self.log(f"Redis at {self.redis_url}")
        for game, app in installed_games().items():
            if self.games is not None and game not in self.games:
                continue
            port = GAME_PORTS.get(game) if self.fixed_ports else None
            port = port if port and port_is_free(port, self.host) else free_port()
            self.service_urls[game] = f"http://{self.host}:{port}"
            self.log(f"starting the {game} service on {self.service_urls[game]}")
            self._gunicorn(game, app, port, self.env)
        self.log(f"starting the gateway on {self.url}")
        self._start_gateway("gateway", self.port)
        for name, url in [*self.service_urls.items(), ("gateway", self.url)]:
            wait_ready(url, self.processes[name])
            self.log(f"  {name} ready")
        self.log("starting the bot worker (it plays the seats given to bots)")
        env = self._gateway_env()
        heartbeat = env.setdefault("BOT_HEARTBEAT_FILE", str(Path(self.scratch.name, "bots")))
        if env.get("METRICS_PORT") != "0":  # its /metrics on a port of its own, as a server's
            metrics_port = free_port()
            env.update(METRICS_PORT=str(metrics_port), BIND=f"{self.host}:0")
            self.metrics_urls["bots"] = f"http://{self.host}:{metrics_port}/metrics"
        self._spawn("bots", [sys.executable, "-m", "referee_gateway.botworker"], env)
        # ready when its loop runs: a stack that answers is one whose bots play (and a
        # benchmark's first seconds are not the worker's start)
        wait_alive(heartbeat, self.processes["bots"])
        self.log("  bots ready")

    def _start_gateway(self, name: str, port: int):
        # gevent workers: an open event stream is an idle greenlet, not a pinned thread
        env = dict(self._gateway_env(), GUNICORN_WORKER_CLASS="gevent")
        return self._gunicorn(name, "referee_gateway:create_app()", port, env)

    def _gateway_env(self) -> dict:
        """The gateway's (and the bot worker's) settings: the Redis and the services."""
        services = ",".join(f"{g}={u}" for g, u in self.service_urls.items())
        return dict(self.env, REDIS_URL=self.redis_url, GAME_SERVICES=services)

    def add_gateway(self, port: int) -> str:
        """Another gateway replica on the same Redis and services (ready when this returns)."""
        name = f"gateway-{port}"
        process = self._start_gateway(name, port)
        url = f"http://{self.host}:{port}"
        wait_ready(url, process)
        return url

    def stop(self) -> None:
        self.restart_at.clear()
        for process in reversed(list(self.processes.values())):
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
            # whatever is left in its session (a server's workers, when it was killed)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        self.processes.clear()
        self.scratch.cleanup()
        if self.redis:
            self.redis.stop()
            self.redis = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m referee.stack",
        description="Serve tabletop-referee on this machine: the gateway on HOST:PORT with "
                    "every installed game service behind it under gunicorn, on the Redis at "
                    "REDIS_URL or, when it is unset, an embedded Redis started and stopped "
                    "here. A process that dies is started again after a backoff; Ctrl-C "
                    "or SIGTERM stops everything.")
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"),
                        help="address to serve on (default 127.0.0.1, env HOST)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)),
                        help="the gateway's port (default 8000, env PORT)")
    parser.add_argument("--workers", type=int,
                        default=int(os.environ.get("WEB_CONCURRENCY", 2)),
                        help="gunicorn workers per server (default 2, env WEB_CONCURRENCY)")
    parser.add_argument("--data-dir", default=os.environ.get("REDIS_DATA_DIR", "var/redis"),
                        help="where the embedded Redis keeps its data (default var/redis)")
    parser.add_argument("--ephemeral", action="store_true",
                        help="embedded Redis keeps nothing on disk")
    args = parser.parse_args(argv)
    data_dir = None
    if not args.ephemeral:
        Path(args.data_dir).mkdir(parents=True, exist_ok=True)
        data_dir = str(Path(args.data_dir).resolve())
    stack = Stack(args.host, args.port, args.workers, redis_url=os.environ.get("REDIS_URL"),
                  data_dir=data_dir, fixed_ports=True,
                  log=lambda line: print(line, flush=True))
    signal.signal(signal.SIGTERM, stop_once)
    signal.signal(signal.SIGINT, stop_once)
    terminal = own_the_terminal()
    try:
        stack.start()
        print(f"\ntabletop-referee is serving on {stack.url}  (docs: {stack.url}/docs, "
              f"OpenAPI: {stack.url}/openapi.json)\nCtrl-C stops everything.", flush=True)
        stack.supervise()
        return 0
    except KeyboardInterrupt:
        print("\nstopping…", flush=True)
        stack.stop()
        print("stopped", flush=True)
        return 0
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        stack.stop()
        give_back_the_terminal(terminal)


def stop_once(*_) -> None:
    """The first Ctrl-C or SIGTERM stops everything; more while it stops are ignored (they
    would cut the stop short and leave processes behind)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def own_the_terminal():
    """Make Ctrl-C reach this launcher alone, not ``make`` above it.

    The terminal sends Ctrl-C to its foreground process group; were ``make`` in
    it, make would report an interrupted recipe although everything stopped
    cleanly. The launcher takes the foreground in a group of its own, stops
    everything itself and exits 0, and make exits 0 with it.
    """
    try:
        fd = sys.stdin.fileno()
        if not os.isatty(fd) or os.getpgrp() != os.tcgetpgrp(fd):
            return None
        previous = os.getpgrp()
        os.setpgid(0, 0)
        quiet = signal.signal(signal.SIGTTOU, signal.SIG_IGN)  # a background group may do this
        os.tcsetpgrp(fd, os.getpgrp())
        signal.signal(signal.SIGTTOU, quiet)
        return fd, previous
    except (OSError, ValueError):
        return None


def give_back_the_terminal(terminal) -> None:
    if terminal is None:
        return
    fd, previous = terminal
    try:
        quiet = signal.signal(signal.SIGTTOU, signal.SIG_IGN)
        os.tcsetpgrp(fd, previous)
        signal.signal(signal.SIGTTOU, quiet)
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main())
