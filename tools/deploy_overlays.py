"""The Kubernetes overlays over k8s/ (issue 31), written by tools/render_deploy.py:

* ``k8s/overlays/production``: Redis as production state — a Redis Cluster of three masters,
  each with a replica, run by the OT-Container-Kit redis-operator (its RedisCluster
  resource), with an append-only file (``appendfsync everysec``), ``maxmemory`` under the
  container limit with ``noeviction``, redis_exporter and disruption budgets that let a node
  drain; the bot worker scaled on its lag by KEDA; images by digest.
* ``k8s/overlays/prometheus-operator``: the production overlay plus ServiceMonitors,
  PodMonitors and a PrometheusRule made from k8s/monitoring/referee-alerts.yml, for a
  cluster whose Prometheus is run by the Prometheus Operator.

Images by digest: the committed overlay holds a placeholder digest per image; a release
pipeline renders it with ``REFEREE_IMAGE_DIGESTS="gateway=sha256:…,ghostone=sha256:…"``
(every image, each a sha256 digest), which this module checks and writes in.
"""

import os
import re

import render_deploy as base
import yaml

OVERLAYS = "k8s/overlays"
PLACEHOLDER_DIGEST = "sha256:" + "0" * 64
DIGEST = re.compile(r"sha256:[0-9a-f]{64}")

# The Redis engine, pinned: OT-Container-Kit redis-operator 0.18 (CRD
# redis.redis.opstreelabs.in/v1beta2; install its Helm chart, ot-helm/redis-operator 0.18.x,
# in the namespace below), its Redis and exporter images.
REDIS_OPERATOR_NAMESPACE = "redis-operator"
REDIS_CLUSTER = "redis-cluster"
REDIS_CLUSTER_IMAGE = "quay.io/opstree/redis:v7.0.15"
REDIS_CLUSTER_EXPORTER_IMAGE = "quay.io/opstree/redis-exporter:v1.44.0"
# Each node: 1Gi of memory, maxmemory 768mb (the rest: an AOF rewrite's copy-on-write,
# replication and client buffers). noeviction: at the limit writes are refused (503 to the
# players), never a session silently dropped; RefereeRedisMemoryHigh warns at 80 %.
REDIS_CLUSTER_MEMORY = "1Gi"
REDIS_CLUSTER_CONFIG = """\
appendonly yes
appendfsync everysec
maxmemory 768mb
maxmemory-policy noeviction
"""
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


def redis_cluster() -> str:
    resources = {"requests": {"cpu": "100m", "memory": "256Mi"},
                 "limits": {"cpu": "1", "memory": REDIS_CLUSTER_MEMORY}}
    spread = [{"maxSkew": 1, "topologyKey": "kubernetes.io/hostname",
               "whenUnsatisfiable": "ScheduleAnyway",
               "labelSelector": {"matchLabels": {"redis_setup_type": "cluster"}}}]
    role = {"replicas": 3, "redisConfig": {"additionalRedisConfig": "redis-cluster-config"},
            # one pod of each role may be down: a drain moves a master (its replica takes
            # over) or a replica, never two of a kind at once
            "pdb": {"enabled": True, "maxUnavailable": 1},
            "topologySpreadConstraints": spread}
    cluster = {
        "apiVersion": "redis.redis.opstreelabs.in/v1beta2", "kind": "RedisCluster",
        "metadata": {"name": REDIS_CLUSTER},
        "spec": {
            "clusterSize": 3, "clusterVersion": "v7", "persistenceEnabled": True,
            "podSecurityContext": {"runAsUser": 1000, "fsGroup": 1000, "runAsNonRoot": True},
            "kubernetesConfig": {
                "image": REDIS_CLUSTER_IMAGE, "imagePullPolicy": "IfNotPresent",
                "resources": resources,
                "redisSecret": {"name": "redis-auth", "key": "REDIS_PASSWORD"}},
            "redisExporter": {
                "enabled": True, "image": REDIS_CLUSTER_EXPORTER_IMAGE,
                "imagePullPolicy": "IfNotPresent",
                "resources": {"requests": {"cpu": "10m", "memory": "32Mi"},
                              "limits": {"cpu": "100m", "memory": "64Mi"}}},
            "redisLeader": role, "redisFollower": role,
            "storage": {
                "volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"],
                                                 "resources": {"requests": {"storage": "2Gi"}}}},
                "nodeConfVolumeClaimTemplate": {"spec": {
                    "accessModes": ["ReadWriteOnce"],
                    "resources": {"requests": {"storage": "1Gi"}}}}}}}
    config = {"apiVersion": "v1", "kind": "ConfigMap",
              "metadata": {"name": "redis-cluster-config"},
              "data": {"redis-additional.conf": REDIS_CLUSTER_CONFIG}}
    return ("# Redis as production state: a Redis Cluster of 3 masters with a replica each,\n"
            "# run by the OT-Container-Kit redis-operator (README: Redis in production).\n"
            + dump(cluster, config))


def redis_cluster_policy() -> str:
    """Who reaches the cluster's pods: the gateway and the bot worker, the nodes themselves
    (the cluster bus), the operator (it forms and heals the cluster) and Prometheus."""
    pods = {"matchLabels": {"redis_setup_type": "cluster"}}
    tcp = lambda *ports: [{"port": p, "protocol": "TCP"} for p in ports]
    policy = {
        "apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
        "metadata": {"name": "redis-cluster"},
        "spec": {"podSelector": pods, "policyTypes": ["Ingress"], "ingress": [
            {"from": [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": who}}}
                      for who in ("gateway", "bots")], "ports": tcp(6379)},
            {"from": [{"podSelector": pods}], "ports": tcp(6379, 16379)},
            {"from": [{"namespaceSelector": {"matchLabels": {
                "kubernetes.io/metadata.name": REDIS_OPERATOR_NAMESPACE}}}],
             "ports": tcp(6379)},
            {"from": [{"namespaceSelector": {"matchLabels": {
                "kubernetes.io/metadata.name": base.MONITORING_NAMESPACE}}}],
             "ports": tcp(9121)}]}}
    return dump(policy)


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
    env = [{"name": "REDIS_URL", "value": f"redis://{REDIS_CLUSTER}-leader:6379/0"},
           {"name": "REDIS_CLUSTER", "value": "1"}]
    return {"patch": dump({"apiVersion": "apps/v1", "kind": "Deployment",
                           "metadata": {"name": name}, "spec": {"template": {"spec": {
                               "containers": [{"name": name, "env": env}]}}}}).strip()}


def production(names, digests: dict[str, str]) -> str:
    kustomization = {
        "apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization",
        "namespace": base.NAMESPACE,
        "resources": ["../../base", "redis-cluster.yaml", "redis-network-policy.yaml",
                      "bots-scaledobject.yaml"],
        "patches": [
            # the base's single Redis and its policies give way to the Redis Cluster
            delete("StatefulSet", "redis", "apps/v1"), delete("Service", "redis", "v1"),
            delete("PodDisruptionBudget", "redis", "policy/v1"),
            delete("NetworkPolicy", "redis-from-gateway", "networking.k8s.io/v1"),
            delete("NetworkPolicy", "redis-metrics-from-monitoring", "networking.k8s.io/v1"),
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
        "metadata": {"name": REDIS_CLUSTER, "labels": selected},
        "spec": {"selector": {"matchLabels": {"redis_setup_type": "cluster"}},
                 "podMetricsEndpoints": [{"port": "redis-exporter", "interval": "30s"}]}}
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
        f"{OVERLAYS}/production/redis-cluster.yaml": redis_cluster(),
        f"{OVERLAYS}/production/redis-network-policy.yaml": redis_cluster_policy(),
        f"{OVERLAYS}/production/bots-scaledobject.yaml": bots_scaled_object()}
    for name, text in prometheus_operator().items():
        files[f"{OVERLAYS}/prometheus-operator/{name}"] = text
    return files
