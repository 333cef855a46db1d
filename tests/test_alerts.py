"""Alert rules, dashboard and scrape configuration (issue 18): promtool accepts the rules
and, on synthetic series, shows every alert firing on its cause and quiet on healthy
traffic; the rules and the dashboard name only metrics the referee exports; Prometheus
finds every pod, and only Prometheus reaches the metrics port."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from prometheus_client.metrics import MetricWrapperBase
from referee import metrics

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import render_deploy

MONITORING = ROOT / "k8s" / "monitoring"
RULES = MONITORING / "referee-alerts.yml"
DASHBOARD = MONITORING / "referee-dashboard.json"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(
    PROMTOOL is None, reason="promtool is missing (apt-get install prometheus; make test "
                             "installs it): the rules are NOT checked in this run")
MOVES = {"service": "gateway", "route": "/v1/sessions/<sid>/moves", "method": "POST",
         "game": "ghostone"}


def rules() -> dict[str, dict]:
    return {r["alert"]: r for g in yaml.safe_load(RULES.read_text())["groups"]
            for r in g["rules"]}


def series(name: str, values: str, **labels) -> dict:
    inner = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    return {"series": f"{name}{{{inner}}}", "values": values}


def requests_per_minute(ok: int, failed: int, service: str = "gateway") -> list[dict]:
    answers = dict(MOVES, service=service)
    return [series("referee_http_requests_total", f"0+{ok}x40", status="200", **answers),
            series("referee_http_requests_total", f"0+{failed}x40", status="503", **answers)]


def bot_lag(bucket: str) -> list[dict]:
    """Sixty bot moves a minute, each as late as the bucket up to ``bucket`` seconds."""
    return [series("referee_botworker_lag_seconds_bucket",
                   f"0+{60 if float(edge) >= float(bucket) else 0}x40", le=edge, lane="people")
            for edge in ["1.0", "2.0", "10.0", "20.0", "+Inf"]]


REDIS_NODE = {"namespace": "tabletop-referee", "instance": "10.0.0.9:9121"}


def redis_memory(used: int, most: int) -> list[dict]:
    return [series("redis_memory_used_bytes", f"{used}x40", **REDIS_NODE),
            series("redis_memory_max_bytes", f"{most}x40", **REDIS_NODE)]


def latency(bucket: str) -> list[dict]:
    """Sixty answers a minute, all in the bucket up to ``bucket`` seconds."""
    edges = ["0.5", "1.0", "2.5", "+Inf"]
    return [series("referee_http_request_duration_seconds_bucket",
                   f"0+{60 if float(edge) >= float(bucket) else 0}x40", le=edge, **MOVES)
            for edge in edges]


#: alert → (what makes it fire, the labels it then has, healthy series that must not fire)
SCENARIOS = {
    "RefereeHighErrorRatio": (requests_per_minute(600, 60), {},
                              [requests_per_minute(600, 0), requests_per_minute(1, 1)]),
    "RefereeSlowAnswers": (latency("2.5"), {"route": MOVES["route"]}, [latency("0.5")]),
    "RefereeRedisDown": ([series("referee_redis_up", "1 1 1 0x30", pod="a"),
                          series("referee_redis_up", "1 0x32", pod="b")], {},
                         [[series("referee_redis_up", "0x40", pod="a"),
                           series("referee_redis_up", "1x40", pod="b")]]),
    "RefereeRedisProbeErrors": ([series("referee_redis_probe_failures_total", "0 0 0 0+60x30",
                                        instance="10.0.0.7:9100")],
                                {"instance": "10.0.0.7:9100"},
                                [[series("referee_redis_probe_failures_total", "3x40",
                                         instance="10.0.0.7:9100")]]),
    "RefereeScrapeFailing": ([series("up", "1 1 1 0x30", namespace="tabletop-referee",
                                     instance="10.0.0.8:9100")],
                             {"namespace": "tabletop-referee", "instance": "10.0.0.8:9100"},
                             [[series("up", "1x40", namespace="tabletop-referee",
                                      instance="10.0.0.8:9100"),
                               series("up", "0x40", namespace="elsewhere")]]),
    "RefereeUpstreamFailures": ([series("referee_upstream_failures_total", "0+30x40",
                                        game="gizmos", reason="ConnectionError")],
                                {"game": "gizmos"},
                                [[series("referee_upstream_failures_total", "0+3x40",
                                         game="gizmos", reason="ReadTimeout")]]),
    "RefereeRateLimitStorm": ([series("referee_rate_limit_hits_total", "0+600x40",
                                      route=MOVES["route"])], {},
                              [[series("referee_rate_limit_hits_total", "0+60x40",
                                       route=MOVES["route"])]]),
    # issue 31: a namespace Prometheus no longer sees, game services' 5xx, late bots, Redis
    # memory and replication (the last three read redis_exporter's series)
    "RefereeTargetsGone": ([series("up", "1x40", namespace="elsewhere", instance="x:9100")],
                           {"namespace": "tabletop-referee"},
                           [[series("up", "1x40", namespace="tabletop-referee",
                                    instance="10.0.0.8:9100")]]),
    "RefereeGameServiceErrors": (requests_per_minute(600, 60, service="ghostone"),
                                 {"service": "ghostone"},
                                 [requests_per_minute(600, 0, service="ghostone"),
                                  requests_per_minute(1, 1, service="ghostone"),
                                  requests_per_minute(600, 60)]),  # the gateway's: not this
    "RefereeBotsLate": (bot_lag("20.0"), {}, [bot_lag("2.0")]),
    "RefereeRedisMemoryHigh": (redis_memory(850, 1000), REDIS_NODE,
                               [redis_memory(500, 1000), redis_memory(900, 0)]),
    "RefereeRedisMemoryFull": (redis_memory(970, 1000), REDIS_NODE, [redis_memory(850, 1000)]),
    "RefereeRedisReplicationBroken": (
        [series("redis_master_link_up", "1 1 1 0x40", **REDIS_NODE)], REDIS_NODE,
        [[series("redis_master_link_up", "1x40", **REDIS_NODE)],
         [series("redis_connected_slaves", "1x40", **REDIS_NODE),
          series("redis_instance_info", "1x40", role="master", redis_version="7.4.1",
                 **REDIS_NODE)]]),
}


#: alerts that must fire within 2 minutes of their cause (issue 28): the minute it starts
FAST = {"RefereeRedisDown": 3, "RefereeRedisProbeErrors": 3, "RefereeScrapeFailing": 3}


def test_every_alert_has_a_scenario_a_severity_and_words_for_the_operator():
    found = rules()
    assert set(found) == set(SCENARIOS)
    for rule in found.values():
        assert rule["labels"]["severity"] in ("page", "warning") and rule["for"]
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]
    readme = (ROOT / "README.md").read_text()
    assert all(name in readme for name in found), "the README's Operating section explains each"
    # each alert's runbook is the README's heading named after it (GitHub's anchor)
    anchors = {re.sub(r"[^a-z0-9 -]", "", h.strip().lower()).replace(" ", "-")
               for h in re.findall(r"^#+ (.+)$", readme, re.MULTILINE)}
    for name, rule in found.items():
        base, _, anchor = rule["annotations"]["runbook_url"].partition("#")
        assert base == render_deploy.RUNBOOK and anchor == name.lower() in anchors, name


@needs_promtool
def test_promtool_checks_the_rules():
    check = subprocess.run([PROMTOOL, "check", "rules", str(RULES)], capture_output=True,
                           text=True, timeout=60, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


@needs_promtool
def test_each_alert_fires_on_its_cause_and_not_on_healthy_traffic(tmp_path):
    found, tests = rules(), []
    for alert, (firing, labels, healthy_cases) in SCENARIOS.items():
        expected = {"exp_labels": {"severity": found[alert]["labels"]["severity"], **labels},
                    "exp_annotations": found[alert]["annotations"]}
        pending = int(found[alert]["for"].removesuffix("m"))  # its "for", in minutes
        quiet = 3 if alert in FAST else min(3, pending - 1)  # within it: not yet
        checks = [{"eval_time": f"{quiet}m", "alertname": alert, "exp_alerts": []},
                  {"eval_time": "30m", "alertname": alert, "exp_alerts": [expected]}]
        if alert in FAST:  # 2 minutes after its cause began, it fires
            checks.append({"eval_time": f"{FAST[alert] + 2}m", "alertname": alert,
                           "exp_alerts": [expected]})
        tests.append({"interval": "1m", "input_series": firing, "alert_rule_test": checks})
        tests += [{"interval": "1m", "input_series": healthy, "alert_rule_test": [
            {"eval_time": "30m", "alertname": alert, "exp_alerts": []}]}
            for healthy in healthy_cases]
    unit = tmp_path / "alerts.test.yml"
    unit.write_text(yaml.safe_dump({"rule_files": [str(RULES)], "evaluation_interval": "1m",
                                    "tests": tests}))
    run = subprocess.run([PROMTOOL, "test", "rules", str(unit)], capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def exported_names() -> set[str]:
    """Every series name the referee exports, suffixes included."""
    names = set()
    for metric in vars(metrics).values():
        if isinstance(metric, MetricWrapperBase):
            for family in metric.describe():
                names |= {family.name + suffix for suffix in {
                    "counter": ["_total"], "histogram": ["_bucket", "_count", "_sum"],
                    "gauge": [""]}[family.type]}

    class Live:
        counted = 0

    class Probe:
        reachable = True
    names |= {f.name for f in metrics.SessionStoreCollector(Live(), Probe()).collect()}
    return names


def test_rules_and_dashboard_name_only_exported_metrics():
    exported = exported_names()
    dashboard = json.loads(DASHBOARD.read_text())
    exprs = [rule["expr"] for rule in rules().values()]
    exprs += [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    named = {n for e in exprs for n in re.findall(r"\breferee_[a-z_]+", e)}
    assert named and named <= exported, named - exported
    dashed = {n.removesuffix("_bucket") for e in exprs for n in re.findall(r"\breferee_[a-z_]+",
                                                                              e)}
    unseen = {n for n in exported if n.removesuffix("_bucket").removesuffix("_count")
              .removesuffix("_sum") not in dashed and not n.endswith(("_count", "_sum"))}
    assert not unseen, f"metrics no panel shows: {unseen}"


def test_the_dashboard_is_a_grafana_model_with_a_prometheus_variable():
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] == "tabletop-referee"
    assert dashboard["templating"]["list"][0] == {
        "name": "datasource", "label": "Prometheus", "type": "datasource", "query": "prometheus"}
    panels = dashboard["panels"]
    assert len({p["id"] for p in panels}) == len(panels)
    cells = set()
    for panel in panels:
        box = panel["gridPos"]
        assert box["x"] + box["w"] <= 24
        mine = {(box["x"] + dx, box["y"] + dy) for dx in range(box["w"]) for dy in range(box["h"])}
        assert not mine & cells, f"{panel['title']} overlaps another panel"
        cells |= mine
        for target in panel.get("targets", []):
            assert target["datasource"]["uid"] == "${datasource}" and target["expr"]


def manifests() -> list[dict]:
    return [doc for path in sorted((ROOT / "k8s" / "base").glob("*.yaml"))
            for doc in yaml.safe_load_all(path.read_text()) if doc]


def test_prometheus_finds_every_pod_on_its_metrics_port():
    docs = manifests()
    names = ["gateway", *render_deploy.games()]
    deployments = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Deployment"}
    services = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Service"}
    for name in names:
        pod = deployments[name]["spec"]["template"]
        assert pod["metadata"]["annotations"] == {
            "prometheus.io/scrape": "true", "prometheus.io/port": "9100",
            "prometheus.io/path": "/metrics"}
        ports = {p["name"]: p["containerPort"] for p in pod["spec"]["containers"][0]["ports"]}
        assert ports == {"http": 8000, "metrics": 9100}
        assert {p["name"]: p["port"] for p in services[name]["spec"]["ports"]} == ports
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "METRICS_PORT=9100" in dockerfile and "PROMETHEUS_MULTIPROC_DIR=/tmp/" in dockerfile


def test_only_the_monitoring_namespace_reaches_the_metrics_port():
    docs = manifests()
    ingress = next(d for d in docs if d["kind"] == "Ingress")
    backends = [p["backend"]["service"] for r in ingress["spec"]["rules"]
                for p in r["http"]["paths"]]
    assert backends == [{"name": "gateway", "port": {"name": "http"}}]
    policies = {d["metadata"]["name"]: d["spec"] for d in docs if d["kind"] == "NetworkPolicy"}
    allowed = policies["metrics-from-monitoring"]["ingress"]
    assert allowed == [{"from": [{"namespaceSelector": {"matchLabels": {
        "kubernetes.io/metadata.name": "monitoring"}}}], "ports": [{"port": 9100,
                                                                    "protocol": "TCP"}]}]
    for name, spec in policies.items():
        if name != "metrics-from-monitoring":
            ports = [p["port"] for rule in spec.get("ingress", []) for p in rule["ports"]]
            assert 9100 not in ports, name


def test_kustomize_makes_configmaps_of_the_rules_and_the_dashboard():
    kustomization = yaml.safe_load((MONITORING / "kustomization.yaml").read_text())
    generated = {c["name"]: c for c in kustomization["configMapGenerator"]}
    assert set(generated) == {"referee-alert-rules", "referee-grafana-dashboard"}
    for config in generated.values():
        assert all((MONITORING / f).is_file() for f in config["files"])
    assert generated["referee-grafana-dashboard"]["options"]["labels"] == {
        "grafana_dashboard": "1"}
