"""The Kubernetes overlays over k8s/ (issue 31), written by tools/render_deploy.py:

* ``k8s/overlays/production``: Redis as production state — a Redis Cluster of three masters,
  each with a replica, from built-in objects only (tools/deploy_redis_cluster.py: a
  StatefulSet, a headless Service, a Job that forms the cluster), with an append-only file
  (``appendfsync everysec``), ``maxmemory`` under the container limit with ``noeviction``,
  redis_exporter and a disruption budget that lets a node drain; the bot worker scaled on
  its lag by KEDA; images by digest.
* ``k8s/overlays/prometheus-operator``: the production overlay plus ServiceMonitors,
  PodMonitors and a PrometheusRule made from k8s/monitoring/referee-alerts.yml, for a
  cluster whose Prometheus is run by the Prometheus Operator.

Images by digest: the committed overlay holds a placeholder digest per image; a release
pipeline renders it with ``REFEREE_IMAGE_DIGESTS="gateway=sha256:…,ghostone=sha256:…"``
(every image, each a sha256 digest), which this module checks and writes in.
"""

import os
import re

import deploy_redis_cluster as cluster
import render_deploy as base
import yaml

OVERLAYS = "k8s/overlays"
PLACEHOLDER_DIGEST = "sha256:" + "0" * 64
DIGEST = re.compile(r"sha256:[0-9a-f]{64}")

# KEDA (2.x) scales the bot worker on the bots' lag as Prometheus reads it
PROMETHEUS_URL = "http://prometheus-operated.monitoring.svc:9090"
BOT_LAG_TARGET_SECONDS = 3  # p90 lag per replica the scaling aims at (budget 1 s + margin)
BOT_LAG_QUERY = (
    "histogram_quantile(0.9, sum by (le) (rate(referee_botworker_lag_seconds_bucket"
    f'{{namespace="{base.NAMESPACE}"}}[2m]))) > 0 or vector(0)')
# labels the Prometheus Operator's selectors look for (kube-prometheus-stack: its release)
PROMETHEUS_SELECTOR = {"release": "kube-prometheus-stack"}


def image_digests(names, setting: str | None = None) -> dict[str, str]:
    """Each image's digest: from ``REFEREE_IMAGE_DIGESTS`` when set (all of them, checked),
    else the placeholder (what is committed)."""
    images = ["gateway", *names]
    setting = os.environ.get("REFEREE_IMAGE_DIGESTS", "") if setting is None else setting
    if not setting:
        return dict.fromkeys(images, PLACEHOLDER_DIGEST)
    given = dict(item.strip().split("=", 1) for item in setting.split(",") if item.strip())
    wrong = [f"{n}={d}" for n, d in given.items() if n not in images or not DIGEST.fullmatch(d)]
    missing = [n for n in images if n not in given]
    if wrong or missing:
        raise SystemExit(f"REFEREE_IMAGE_DIGESTS: unknown or malformed {wrong}, "
                         f"missing {missing} (name=sha256:<64 hex digits>, every image)")
    return {n: given[n] for n in images}


def dump(*docs) -> str:
    return "---\n".join(yaml.safe_dump(d, sort_keys=False) for d in docs)


def bots_scaled_object() -> str:
    scaled = {
        "apiVersion": "keda.sh/v1alpha1", "kind": "ScaledObject",
        "metadata": {"name": "bots"},
        "spec": {
            "scaleTargetRef": {"name": "bots"}, "minReplicaCount": 2, "maxReplicaCount": 10,
            "pollingInterval": 15, "cooldownPeriod": 300,
            "triggers": [{"type": "prometheus", "metricType": "Value", "metadata": {
                "serverAddress": PROMETHEUS_URL, "query": BOT_LAG_QUERY,
                "threshold": str(BOT_LAG_TARGET_SECONDS)}}]}}
    return ("# The bot worker scales on how late the bots are, not on CPU (README: Deploying).\n"
            + dump(scaled))


def delete(kind: str, name: str, api: str) -> dict:
    return {"patch": dump({"$patch": "delete", "apiVersion": api, "kind": kind,
                           "metadata": {"name": name}}).strip()}


def cluster_clients(name: str) -> dict:
    """The gateway or the bot worker talks to the Redis Cluster (REDIS_CLUSTER=1)."""
    env = [{"name": "REDIS_URL", "value": cluster.URL},
           {"name": "REDIS_CLUSTER", "value": "1"}]
    return {"patch": dump({"apiVersion": "apps/v1", "kind": "Deployment",
                           "metadata": {"name": name}, "spec": {"template": {"spec": {
                               "containers": [{"name": name, "env": env}]}}}}).strip()}


def production(names, digests: dict[str, str]) -> str:
    kustomization = {
        "apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
        "namespace": base.NAMESPACE,
        "resources": ["../../base", *(f for f in cluster.files(dump) if f.endswith(".yaml")),
                      "bots-scaledobject.yaml"],
        "configMapGenerator": [cluster.config_map_generator()],
        "patches": [
            # the base's single Redis gives way to the Redis Cluster; the base's
            # redis-metrics-from-monitoring lets Prometheus reach its exporters too
            delete("StatefulSet", "redis", "apps/v1"), delete("Service", "redis", "v1"),
            delete("PodDisruptionBudget", "redis", "policy/v1"),
            delete("NetworkPolicy", "redis-from-gateway", "networking.k8s.io/v1"),
            # KEDA makes the bot worker's autoscaler from its ScaledObject
            delete("HorizontalPodAutoscaler", "bots", "autoscaling/v2"),
            cluster_clients("gateway"), cluster_clients("bots")],
        "images": [{"name": f"tabletop-referee/{n}", "digest": digests[n]}
                   for n in ["gateway", *names]]}
    return ("# kubectl apply -k k8s/overlays/production   (generated by tools/render_deploy.py;\n"
            "# REFEREE_IMAGE_DIGESTS=… make deploy-files writes the release's image digests)\n"
            + dump(kustomization))


def prometheus_operator() -> dict[str, str]:
    rules = yaml.safe_load((base.ROOT / "k8s/monitoring/referee-alerts.yml").read_text())
    selected = {"app.kubernetes.io/part-of": "tabletop-referee", **PROMETHEUS_SELECTOR}
    servers = {
        "apiVersion": "monitoring.coreos.com/v1", "kind": "ServiceMonitor",
        "metadata": {"name": "referee", "labels": selected},
        "spec": {"selector": {"matchExpressions": [{
            "key": "app.kubernetes.io/component", "operator": "In",
            "values": ["gateway", "game-service"]}]},
            "endpoints": [{"port": "metrics", "path": "/metrics", "interval": "30s"}]}}
    bots = {
        "apiVersion": "monitoring.coreos.com/v1", "kind": "PodMonitor",
        "metadata": {"name": "bots", "labels": selected},
        "spec": {"selector": {"matchLabels": {"app.kubernetes.io/name": "bots"}},
                 "podMetricsEndpoints": [{"port": "metrics", "path": "/metrics",
                                          "interval": "30s"}]}}
    redis = {
        "apiVersion": "monitoring.coreos.com/v1", "kind": "PodMonitor",
        "metadata": {"name": cluster.NAME, "labels": selected},
        "spec": {"selector": {"matchLabels": {"app.kubernetes.io/name": cluster.NAME}},
                 "podMetricsEndpoints": [{"port": "metrics", "interval": "30s"}]}}
    rule = {
        "apiVersion": "monitoring.coreos.com/v1", "kind": "PrometheusRule",
        "metadata": {"name": "referee-alerts", "labels": selected},
        "spec": {"groups": rules["groups"]}}
    kustomization = {
        "apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
        "namespace": base.NAMESPACE,
        "resources": ["../production", "monitors.yaml", "prometheus-rule.yaml"]}
    return {
        "kustomization.yaml": "# kubectl apply -k k8s/overlays/prometheus-operator   "
                              "(generated by tools/render_deploy.py)\n" + dump(kustomization),
        "monitors.yaml": dump(servers, bots, redis),
        "prometheus-rule.yaml": "# Made from k8s/monitoring/referee-alerts.yml (one source "
                                "of the rules)\n" + dump(rule)}


def overlays(names) -> dict[str, str]:
    """Every overlay file: path relative to the repository → content."""
    files = {
        f"{OVERLAYS}/production/kustomization.yaml": production(names, image_digests(names)),
        f"{OVERLAYS}/production/bots-scaledobject.yaml": bots_scaled_object()}
    files.update({f"{OVERLAYS}/production/{name}": text
                  for name, text in cluster.files(dump).items()})
    for name, text in prometheus_operator().items():
        files[f"{OVERLAYS}/prometheus-operator/{name}"] = text
    return files
