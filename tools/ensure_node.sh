#!/bin/sh
# make test: the TypeScript checks (tests/test_typescript.py) run openapi-typescript and tsc,
# pinned in client/typescript/package-lock.json. Install node when it is missing and this can
# (root with apt-get), then the pinned tools (npm ci, once); else say so loudly: those tests
# fail with the reason.
cd "$(dirname "$0")/../client/typescript" || exit 0
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing node (apt-get install nodejs npm)…"
    apt-get update -qq >/dev/null && \
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        nodejs npm >/dev/null
  fi
fi
if ! command -v npm >/dev/null 2>&1; then
  cat >&2 <<'WARN'
**********************************************************************************
* WARNING: node and npm are missing and could not be installed (needs root and   *
* apt-get: `apt-get install nodejs npm`). The TypeScript tests                   *
* (tests/test_typescript.py) FAIL in this run; everything else is tested.        *
**********************************************************************************
WARN
  exit 0
fi
[ -x node_modules/.bin/tsc ] && [ -x node_modules/.bin/openapi-typescript ] && exit 0
echo "installing the pinned TypeScript tools (npm ci in client/typescript)…"
npm ci --no-audit --no-fund --silent || echo "npm ci failed: the TypeScript tests will fail" >&2
exit 0
