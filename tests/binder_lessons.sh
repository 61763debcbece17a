#!/usr/bin/env bash
# Every lesson in the Binder environment, built from binder/ alone, as `make test` runs it (tests/suite.sh).
# Binder ignores pyproject.toml: it installs binder/requirements.txt into Python binder/runtime.txt, then runs
# binder/postBuild in the repository. This builds the same in a fresh venv (pip from the package index pip is set
# up with, as the Makefile's installs; no torch), with ipykernel (Binder's base environment has it), and runs
# every lesson under nbval-lax in a kernel of that venv. The test runner (pytest, nbval) stays in $PYTHON's
# environment, so a lesson that imports anything binder/ does not install fails here.
# Exit 0 with a "SKIPPED" line when a wheel or binder's Python cannot be had (offline); 1 when something failed.
set -euo pipefail
PYTHON=${PYTHON:-.venv/bin/python}
case $PYTHON in */*) PYTHON=$(cd "$(dirname "$PYTHON")" && pwd)/$(basename "$PYTHON") ;; esac  # it runs elsewhere
ROOT=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
skip() { echo "== binder: SKIPPED: $*"; exit 0; }
started=$SECONDS

# Binder's Python: binder/runtime.txt says python-X.Y
version=$(sed -n 's/^python-\([0-9]*\.[0-9]*\).*/\1/p' "$ROOT/binder/runtime.txt")
command -v "python$version" >/dev/null || skip "python$version (binder/runtime.txt) is not installed here"

# The repository as Binder clones it: the files git knows (tracked and new), without venvs or build output.
mkdir "$work/repo"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard \
    | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$work/repo"  # (deleted files left out)

venv=$work/venv
"python$version" -m venv "$venv"
if ! "$venv/bin/python" -m pip install -q -r "$work/repo/binder/requirements.txt" ipykernel >"$work/pip.log" 2>&1; then
    reason=$(grep -m1 -E "No matching distribution|Could not find a version|Failed to establish|Temporary failure in name resolution|Max retries exceeded" "$work/pip.log" || true)
    [ -n "$reason" ] && skip "a wheel binder/requirements.txt needs is unavailable (offline?): $reason"
    cat "$work/pip.log"; echo "== binder: FAILED: pip could not install binder/requirements.txt"; exit 1
fi
(cd "$work/repo" && PATH="$venv/bin:$PATH" bash binder/postBuild >"$work/postBuild.log" 2>&1) || {
    cat "$work/postBuild.log"; echo "== binder: FAILED: binder/postBuild"; exit 1; }
built=$((SECONDS - started))

# A kernel of that venv, seen only by this run; PYTHONPATH emptied so nothing from outside the venv is imported.
mkdir -p "$work/jupyter/kernels/binder"
cat >"$work/jupyter/kernels/binder/kernel.json" <<EOF
{"argv": ["$venv/bin/python", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
 "display_name": "Binder (binder/ only)", "language": "python", "env": {"PYTHONPATH": ""}}
EOF
# A first notebook checks that the lessons run there: the venv's Python, the package installed by postBuild, no torch.
"$PYTHON" - "$work/repo/notebooks/00_binder_kernel.ipynb" "$venv" <<'EOF'
import sys
import nbformat
check = f"""import importlib.util, sys
import autograd_tutor
assert sys.prefix == {sys.argv[2]!r}, sys.prefix
assert autograd_tutor.__file__.startswith(sys.prefix), autograd_tutor.__file__
assert importlib.util.find_spec("torch") is None, "torch is in the Binder environment"
"""
nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(check)]), sys.argv[1])
EOF
cd "$work/repo"
status=0
env -u PYTHONPATH JUPYTER_PATH="$work/jupyter" "$PYTHON" -m pytest -q --nbval-lax --nbval-kernel-name binder \
    notebooks || status=$?
echo "== binder: venv built in ${built}s, lessons run in $((SECONDS - started - built))s"
exit $status
