#!/usr/bin/env bash
# A class on a JupyterHub (tests/hub): the kernel of KERNEL_BIN's build folder installed
# system-wide into a temporary prefix by tools/install.sh (what `make install` runs), then real
# JupyterHub from .venv with Debian's configurable-http-proxy, and N students at once.
#
#   tools/run-hub-tests.sh KERNEL_BIN        MT_HUB_STUDENTS=N (10 by default)
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 KERNEL_BIN" >&2; exit 2; }
[ -x "$1" ] || { echo "error: $1 is not an executable file" >&2; exit 2; }
build=$(cd "$(dirname "$1")" && pwd)
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=$PWD/.venv/bin/python
[ -x "$PY" ] || { echo "error: $PY missing; run tools/setup.sh test (or make setup-test)" >&2; exit 2; }
command -v configurable-http-proxy >/dev/null ||
    { echo "error: configurable-http-proxy missing; run tools/setup.sh test" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mt-hub-test.XXXXXX")
# whatever the hub left running (a test stopped midway) goes with the folder
trap 'pkill -f "$WORK/" || true; rm -rf "$WORK"' EXIT
tools/install.sh "$build" "$WORK/prefix" >"$WORK/install.log" 2>&1 ||
    { cat "$WORK/install.log"; exit 1; }
export MT_HUB_PREFIX=$WORK/prefix
# the students' Jupyter finds only the install's kernelspec and its own configuration
export JUPYTER_CONFIG_DIR=$WORK/config JUPYTER_RUNTIME_DIR=$WORK/runtime JUPYTER_PLATFORM_DIRS=1
export PYTHONDONTWRITEBYTECODE=1
unset JUPYTER_PATH JUPYTER_DATA_DIR
"$PY" -m pytest -p no:cacheprovider -q tests/hub --basetemp="$WORK/pytest" --durations=3
