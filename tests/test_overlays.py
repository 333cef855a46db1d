"""Every kustomization as `kubectl apply -k` would build it (issue 31 items 3–5): the base and
the overlays rendered by `kubectl kustomize` (make test installs kubectl when missing:
tools/ensure_kubectl.sh), each object validated strictly against the Kubernetes schemas, a
policy check by checkov with every accepted finding listed with its reason
(k8s/policy-allowlist.yaml), no secret in git, and what production needs of Redis, rollouts
and monitoring."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import kubernetes_validate
import pytest
import yaml
from cloudcoil.models.keda.v1alpha1 import ScaledObject
from cloudcoil.models.prometheus_operator.v1 import PodMonitor, PrometheusRule, ServiceMonitor

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import deploy_overlays
import deploy_redis_cluster
import render_deploy

KUBECTL = shutil.which("kubectl") or shutil.which("kubectl", path=str(Path(sys.executable).parent))
CHECKOV = Path(sys.executable).parents[1] / "checkov" / "bin" / "checkov"
OVERLAYS = {"base": "k8s/base", "production": "k8s/overlays/production",
            "prometheus-operator": "k8s/overlays/prometheus-operator"}
#: the custom resources the overlays use, by API version → the model generated from its
#: operator's CRD (KEDA 2.16.1, Prometheus Operator 0.80.1: requirements-dev.txt). The Redis
#: Cluster is built-in objects only: validated strictly with the rest.
CUSTOM = {("keda.sh/v1alpha1", "ScaledObject"): ScaledObject,
          ("monitoring.coreos.com/v1", "ServiceMonitor"): ServiceMonitor,
          ("monitoring.coreos.com/v1", "PodMonitor"): PodMonitor,
          ("monitoring.coreos.com/v1", "PrometheusRule"): PrometheusRule}
needs_kubectl = pytest.mark.skipif(KUBECTL is None, reason=(
    "kubectl is missing (make test installs it: tools/ensure_kubectl.sh): the overlays are "
    "NOT rendered in this run"))
pytestmark = needs_kubectl


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A copy of k8s/ with a throwaway Redis password in its (git-ignored) place."""
    copy = tmp_path_factory.mktemp("k8s") / "k8s"
    shutil.copytree(ROOT / "k8s", copy)
    (copy / "secrets" / render_deploy.SECRET_FILE).write_text("a-password-for-the-test")
    return copy


def kustomize(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([KUBECTL, "kustomize", str(folder)], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.fixture(scope="module")
def rendered(tree) -> dict[str, list[dict]]:
    built = {}
    for name, folder in OVERLAYS.items():
        run = kustomize(tree.parent / folder)
        assert run.returncode == 0, (name, run.stderr)
        built[name] = [d for d in yaml.safe_load_all(run.stdout) if d]
    return built


def objects(docs, kind) -> dict[str, dict]:
    return {d["metadata"]["name"]: d for d in docs if d["kind"] == kind}


@pytest.mark.parametrize("version", ["1.30.0", "1.32.0"])
@pytest.mark.parametrize("overlay", list(OVERLAYS))
def test_every_object_validates_strictly_against_the_kubernetes_schemas(rendered, overlay,
                                                                        version):
    custom = []
    for doc in rendered[overlay]:
        if (doc["apiVersion"], doc["kind"]) in CUSTOM:
            custom.append(doc["kind"])
            continue
        kubernetes_validate.validate(doc, version, strict=True)
    assert len(rendered[overlay]) > 35
    assert bool(custom) == (overlay != "base")  # the base needs no operator


@pytest.mark.parametrize("overlay", ["production", "prometheus-operator"])
def test_every_custom_resource_validates_strictly_against_its_operators_crd(rendered, overlay):
    """Validated by the CRD's model (types, enums, required fields), then dumped back: a field
    the CRD does not have is dropped by the model, so the round trip shows it."""
    checked = []
    for doc in rendered[overlay]:
        model = CUSTOM.get((doc["apiVersion"], doc["kind"]))
        if model is not None:
            read = model.model_validate(doc)
            assert json.loads(read.model_dump_json(by_alias=True, exclude_unset=True)) == doc
            checked.append(doc["kind"])
    assert "ScaledObject" in checked
    assert ("PrometheusRule" in checked) == (overlay == "prometheus-operator")


def test_a_custom_resource_with_an_unknown_or_mistyped_field_is_caught(rendered):
    monitor = objects(rendered["prometheus-operator"], "ServiceMonitor")["referee"]
    misspelt = json.loads(json.dumps(monitor))
    misspelt["spec"]["endpoints"][0]["prot"] = misspelt["spec"]["endpoints"][0].pop("port")
    read = ServiceMonitor.model_validate(misspelt)
    assert json.loads(read.model_dump_json(by_alias=True, exclude_unset=True)) != misspelt
    mistyped = json.loads(json.dumps(monitor))
    mistyped["spec"]["endpoints"][0]["interval"] = 30
    with pytest.raises(ValueError, match="interval"):
        ServiceMonitor.model_validate(mistyped)


def test_nothing_renders_without_the_password_file_and_no_secret_is_in_git(tree, tmp_path):
    bare = tmp_path / "k8s"
    shutil.copytree(ROOT / "k8s", bare, ignore=shutil.ignore_patterns(render_deploy.SECRET_FILE))
    for folder in OVERLAYS.values():
        run = kustomize(bare.parent / folder)
        assert run.returncode != 0 and render_deploy.SECRET_FILE in run.stderr, run.stderr
    listed = subprocess.run(["git", "ls-files", "k8s", "docker-compose.yml"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    for path in listed:
        text = (ROOT / path).read_text()
        assert "change-me" not in text and not re.search(r"^kind: Secret", text, re.MULTILINE), path
    ignored = subprocess.run(["git", "check-ignore", "-q",
                              f"k8s/secrets/{render_deploy.SECRET_FILE}"], cwd=ROOT, check=False)
    assert ignored.returncode == 0, "the password file must be ignored by git"


def test_no_pod_has_the_redis_password_on_a_command_line_or_in_a_url(rendered):
    for overlay, docs in rendered.items():
        for doc in docs:
            if doc["kind"] not in ("Deployment", "StatefulSet"):
                continue
            for container in doc["spec"]["template"]["spec"]["containers"]:
                line = " ".join(container.get("command", []) + container.get("args", []))
                assert "--requirepass" not in line and "$(REDIS_PASSWORD)" not in line
                for env in container.get("env", []):
                    assert "@" not in env.get("value", ""), (overlay, env)


def checkov_findings(folder: Path, docs: list[dict]) -> set[tuple[str, str]]:
    manifest = folder / "rendered.yaml"
    manifest.write_text(yaml.safe_dump_all(docs))
    run = subprocess.run([str(CHECKOV), "--file", str(manifest), "--framework", "kubernetes",
                          "--output", "json", "--compact", "--skip-download"],
                         capture_output=True, text=True, timeout=600, check=False,
                         env={**os.environ, "BC_SKIP_MAPPING": "TRUE"})
    result = json.loads(run.stdout)["results"]
    assert result["passed_checks"], run.stderr
    # a resource reads Kind.namespace.name: the namespace is always the referee's
    return {(f["check_id"], f["resource"].replace(f".{render_deploy.NAMESPACE}.", ".", 1))
            for f in result["failed_checks"]}


@pytest.mark.skipif(not CHECKOV.exists(), reason=(
    "checkov is missing (make test installs it: tools/ensure_checkov.sh): the policy check "
    "is NOT run"))
@pytest.mark.parametrize("overlay", list(OVERLAYS))
def test_every_policy_finding_is_accepted_with_its_reason(rendered, overlay, tmp_path):
    allowed = yaml.safe_load((ROOT / "k8s/policy-allowlist.yaml").read_text())[overlay]
    accepted = {(check, resource) for check, entry in allowed.items()
                for resource in entry["resources"]}
    assert all(entry["reason"].strip() for entry in allowed.values())
    found = checkov_findings(tmp_path, rendered[overlay])
    assert not found - accepted, f"findings nobody accepted: {sorted(found - accepted)}"
    assert not accepted - found, f"accepted findings checkov no longer makes: " \
                                 f"{sorted(accepted - found)}"


def test_production_runs_redis_as_a_cluster_with_replicas_limits_and_an_exporter(rendered):
    docs = rendered["production"]
    assert "redis" not in objects(docs, "StatefulSet")  # the base's single Redis is gone
    assert not [d for d in docs if "redis" in d["apiVersion"]]  # no operator's resource
    name = deploy_redis_cluster.NAME
    nodes = objects(docs, "StatefulSet")[name]["spec"]
    assert nodes["replicas"] == 6 and nodes["serviceName"] == name
    service = objects(docs, "Service")[name]["spec"]
    assert service["clusterIP"] == "None" and service["publishNotReadyAddresses"]
    budget = objects(docs, "PodDisruptionBudget")[name]["spec"]
    assert budget["maxUnavailable"] == 1 and budget["unhealthyPodEvictionPolicy"] == "AlwaysAllow"
    pod = nodes["template"]["spec"]
    redis, exporter = pod["containers"]
    assert exporter["image"] == render_deploy.REDIS_EXPORTER_IMAGE
    env = {e["name"]: e for e in redis["env"]}
    for variable in ("REDIS_PASSWORD", "REDISCLI_AUTH"):
        assert env[variable]["valueFrom"]["secretKeyRef"] == {"name": "redis-auth",
                                                             "key": "REDIS_PASSWORD"}
    assert env["REDIS_ANNOUNCE_HOSTNAME"]["value"] == f"$(POD_NAME).{name}"
    mounts = {m["name"]: m["mountPath"] for m in redis["volumeMounts"]}
    assert mounts["data"] == "/data"  # the append-only file and nodes.conf: on the volume
    config_map = pod["volumes"][0]["configMap"]["name"]
    assert config_map.startswith(f"{name}-")  # kustomize's hash: a changed script rolls them
    config = objects(docs, "ConfigMap")[config_map]["data"]["redis.conf"]
    settings = dict(line.split(" ", 1) for line in config.splitlines()
                    if line and not line.startswith("#"))
    assert settings["appendonly"] == "yes" and settings["appendfsync"] == "everysec"
    assert settings["maxmemory-policy"] == "noeviction"
    assert settings["cluster-preferred-endpoint-type"] == "hostname"
    assert mebibytes(settings["maxmemory"]) <= 0.8 * mebibytes(
        redis["resources"]["limits"]["memory"])
    job = objects(docs, "Job")[f"{name}-create"]["spec"]["template"]["spec"]
    assert job["volumes"][0]["configMap"]["name"] == config_map
    creator = job["containers"][0]
    assert creator["command"][-1].endswith("/create-cluster.sh")
    assert {e["value"] for e in creator["env"] if e["name"] == "REDIS_CLUSTER_NODES"} == {
        " ".join(f"{name}-{n}.{name}:6379" for n in range(6))}
    for client in ("gateway", "bots"):
        env = {e["name"]: e.get("value") for e in objects(docs, "Deployment")[client]["spec"][
            "template"]["spec"]["containers"][0]["env"]}
        assert env["REDIS_CLUSTER"] == "1" and env["REDIS_URL"] == f"redis://{name}:6379/0"
    policy = objects(docs, "NetworkPolicy")[name]["spec"]["ingress"]
    assert [r["ports"] for r in policy] == [[{"port": 6379, "protocol": "TCP"}], [
        {"port": 6379, "protocol": "TCP"}, {"port": 16379, "protocol": "TCP"}]]
    assert "redis-metrics-from-monitoring" in objects(docs, "NetworkPolicy")  # the exporters
    budgets = objects(rendered["base"], "PodDisruptionBudget")
    assert budgets["redis"]["spec"]["maxUnavailable"] == 1  # the base's lets a drain pass too


def mebibytes(size: str) -> float:
    number, unit = re.fullmatch(r"(\d+)\s*([a-zA-Z]*)", size).groups()
    # Redis reads "mb" as 1024 * 1024 bytes, Kubernetes "Mi" the same
    return int(number) * {"mb": 1, "Mi": 1, "gb": 1024, "Gi": 1024}[unit]


def test_base_redis_keeps_maxmemory_below_its_limit():
    settings = dict(line.split(" ", 1) for line in render_deploy.REDIS_CONFIG.splitlines())
    assert settings["maxmemory-policy"] == "noeviction"
    assert settings["appendfsync"] == "everysec"
    assert mebibytes(settings["maxmemory"]) <= 0.8 * mebibytes(render_deploy.REDIS_MEMORY_LIMIT)


def test_rollouts_drain_spread_and_pin_images(rendered):
    graceful = int(render_deploy.SETTINGS["GUNICORN_GRACEFUL_TIMEOUT"])
    for overlay, docs in rendered.items():
        for name, doc in objects(docs, "Deployment").items():
            pod = doc["spec"]["template"]["spec"]
            keys = {c["topologyKey"] for c in pod["topologySpreadConstraints"]}
            assert {"kubernetes.io/hostname", "topology.kubernetes.io/zone"} <= keys, name
            container = pod["containers"][0]
            for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
                assert container[probe]["timeoutSeconds"] >= 1, (name, probe)
            if name != "bots":  # servers: out of rotation, then gunicorn's graceful stop
                wait = int(container["lifecycle"]["preStop"]["exec"]["command"][1])
                assert pod["terminationGracePeriodSeconds"] >= wait + graceful, name
            image = container["image"]
            assert ("@sha256:" in image) == (overlay != "base"), (overlay, image)
    gateway = objects(rendered["production"], "Deployment")["gateway"]
    env = {e["name"]: e.get("value") for e in gateway["spec"]["template"]["spec"][
        "containers"][0]["env"]}
    assert env["TRUSTED_PROXY_HOPS"] == "1"  # behind the Ingress: one proxy


def test_image_digests_come_from_the_release_all_of_them_well_formed():
    names = render_deploy.games()
    digest = "sha256:" + "ab" * 32
    every = ",".join(f"{n}={digest}" for n in ["gateway", *names])
    assert set(deploy_overlays.image_digests(names, every).values()) == {digest}
    assert set(deploy_overlays.image_digests(names, "").values()) == {
        deploy_overlays.PLACEHOLDER_DIGEST}
    for wrong in (f"gateway={digest}", every + ",nosuch=" + digest,
                  every.replace(digest, "sha256:1234", 1)):
        with pytest.raises(SystemExit):
            deploy_overlays.image_digests(names, wrong)


def test_the_bot_worker_scales_on_its_lag_and_is_probed_without_python(rendered):
    docs = rendered["production"]
    assert "bots" not in objects(docs, "HorizontalPodAutoscaler")  # KEDA makes its own
    trigger = objects(docs, "ScaledObject")["bots"]["spec"]["triggers"][0]
    assert trigger["type"] == "prometheus" and "referee_botworker_lag_seconds_bucket" in \
        trigger["metadata"]["query"]
    bots = objects(rendered["base"], "Deployment")["bots"]["spec"]["template"]
    container = bots["spec"]["containers"][0]
    assert "python" not in json.dumps(container["livenessProbe"])
    assert bots["metadata"]["annotations"]["prometheus.io/port"] == "9100"


@pytest.mark.parametrize("age,alive", [(0, True), (render_deploy.BOT_ALIVE_SECONDS + 30, False),
                                       (None, False)])
def test_the_bot_workers_liveness_command_reads_the_heartbeats_age(tmp_path, age, alive):
    """The probe's own command, run by sh as the kubelet runs it in the pod."""
    heartbeat = tmp_path / "bots-alive"
    if age is not None:
        heartbeat.touch()
        stamp = heartbeat.stat().st_mtime - age
        os.utime(heartbeat, (stamp, stamp))
    run = subprocess.run(render_deploy.BOT_ALIVE, env={"PATH": "/usr/bin:/bin",
                                                       "BOT_HEARTBEAT_FILE": str(heartbeat)},
                         check=False, timeout=10)
    assert (run.returncode == 0) == alive


def test_prometheus_operator_gets_monitors_and_the_same_rules(rendered):
    docs = rendered["prometheus-operator"]
    rule = objects(docs, "PrometheusRule")["referee-alerts"]
    written = yaml.safe_load((ROOT / "k8s/monitoring/referee-alerts.yml").read_text())
    assert rule["spec"]["groups"] == written["groups"]
    monitors = objects(docs, "ServiceMonitor")["referee"]["spec"]
    assert monitors["endpoints"][0]["port"] == "metrics"
    services = [s for s in objects(docs, "Service").values()
                if s["metadata"]["labels"].get("app.kubernetes.io/component")
                in monitors["selector"]["matchExpressions"][0]["values"]]
    assert len(services) == 1 + len(render_deploy.games())
    assert all("metrics" in {p["name"] for p in s["spec"]["ports"]} for s in services)
    assert set(objects(docs, "PodMonitor")) == {"bots", deploy_redis_cluster.NAME}
