#!/bin/sh
# make test: promtool (Debian's `prometheus` package) checks the metrics exposition and the
# alert rules in tests/test_metrics.py and tests/test_alerts.py. Install it when it is
# missing and this can (root with apt-get); else say so loudly: only those checks skip.
command -v promtool >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing promtool (apt-get install prometheus)…"
  if apt-get update -qq >/dev/null && \
     DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
       prometheus >/dev/null; then
    command -v promtool >/dev/null 2>&1 && exit 0
  fi
fi
cat >&2 <<'WARN'
**********************************************************************************
* WARNING: promtool is missing and could not be installed (needs root and        *
* apt-get: `apt-get install prometheus`). The promtool checks of the metrics and *
* the alert rules are SKIPPED in this run; everything else is tested.            *
**********************************************************************************
WARN
exit 0
