#!/bin/sh
# make test: Debian's `prometheus` package gives promtool, which checks the metrics exposition
# and the alert rules (tests/test_metrics.py, tests/test_alerts.py), and the Prometheus server,
# which scrapes a live stack in tests/test_prometheus.py. Install it when either is missing
# and this can (root with apt-get); else say so loudly: only those checks skip.
command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing promtool and prometheus (apt-get install prometheus)…"
  if apt-get update -qq >/dev/null && \
     DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
       prometheus >/dev/null; then
    command -v promtool >/dev/null 2>&1 && command -v prometheus >/dev/null 2>&1 && exit 0
  fi
fi
cat >&2 <<'WARN'
**********************************************************************************
* WARNING: promtool or prometheus is missing and could not be installed (needs   *
* root and apt-get: `apt-get install prometheus`). The promtool checks of the    *
* metrics and the alert rules and the live Prometheus test are SKIPPED in this   *
* run; everything else is tested.                                                *
**********************************************************************************
WARN
exit 0
