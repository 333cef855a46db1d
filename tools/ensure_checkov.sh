#!/bin/sh
# make test: checkov, the policy check of the rendered manifests (tests/test_overlays.py),
# pinned, in a virtual environment of its own inside the project's (.venv/checkov): it pins
# dozens of packages of its own that must not move the project's. Else say so loudly.
VENV=${VENV:-.venv}
CHECKOV="$VENV/checkov"
test -x "$CHECKOV/bin/checkov" && exit 0
echo "installing checkov into $CHECKOV (first run takes a few minutes)…"
if python3 -m venv "$CHECKOV" && \
   "$CHECKOV/bin/pip" install --quiet --disable-pip-version-check 'checkov==3.3.30' && \
   "$CHECKOV/bin/checkov" --version >/dev/null 2>&1; then
  exit 0
fi
rm -rf "$CHECKOV"
cat >&2 <<'WARN'
**********************************************************************************
* WARNING: checkov could not be installed (pip install checkov). The policy      *
* check of the manifests is SKIPPED in this run.                                 *
**********************************************************************************
WARN
exit 0
