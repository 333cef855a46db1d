"""Serve the whole referee on one machine: ``make run`` (``python -m referee.stack``).

Starts an embedded Redis (unless ``REDIS_URL`` is set), every installed game
service and the gateway under gunicorn, waits until each answers ``/readyz``,
and stops all of it on Ctrl-C. Tests and benchmarks use :class:`Stack` too.
"""

import argparse
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


class Stack:
    """Redis + every game service + the gateway, as real processes."""

    def __init__(self, host="127.0.0.1", port=8000, workers=2, threads=4, redis_url=None,
                 data_dir=None, fixed_ports=False, log=print, env=None, games=None):
        self.host, self.port, self.log = host, port, log
        self.games = games  # the game services to start (None: every installed game)
        self.redis_url, self.data_dir, self.fixed_ports = redis_url, data_dir, fixed_ports
        self.env = {**os.environ, "WEB_CONCURRENCY": str(workers),
                    "GUNICORN_THREADS": str(threads), **(env or {})}
        self.redis = None
        self.processes: dict[str, subprocess.Popen] = {}
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
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "python:referee.gunicorn_conf", *binds,
             "--name", f"referee-{name}", app], env=env,
            start_new_session=True)  # Ctrl-C reaches the launcher, which stops them in order
        self.processes[name] = process
        return process

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
        self.processes["bots"] = subprocess.Popen(
            [sys.executable, "-m", "referee_gateway.botworker"], env=env,
            start_new_session=True)
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
        for process in reversed(list(self.processes.values())):
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
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
                    "here. Ctrl-C stops everything.")
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
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    terminal = own_the_terminal()
    try:
        stack.start()
        print(f"\ntabletop-referee is serving on {stack.url}  (docs: {stack.url}/docs, "
              f"OpenAPI: {stack.url}/openapi.json)\nCtrl-C stops everything.", flush=True)
        while all(p.poll() is None for p in stack.processes.values()):
            time.sleep(0.5)
        print("a server exited; stopping everything", file=sys.stderr)
        return 1
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
