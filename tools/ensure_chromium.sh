#!/bin/sh
# make test: the page's browser tests (tests/test_page.py) drive Debian's `chromium` through
# Playwright. Install it when it is missing and this can (root with apt-get); else say so
# loudly: only those tests skip. Playwright's own browser download is never used.
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing chromium (apt-get install chromium)…"
  if apt-get update -qq >/dev/null && \
     DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
       chromium fonts-noto-cjk >/dev/null; then
    command -v chromium >/dev/null 2>&1 && exit 0
  fi
fi
cat >&2 <<'WARN'
**********************************************************************************
* WARNING: chromium is missing and could not be installed (needs root and        *
* apt-get: `apt-get install chromium`). The browser tests of the page            *
* (tests/test_page.py) are SKIPPED in this run; everything else is tested.       *
**********************************************************************************
WARN
exit 0
