#!/usr/bin/env bash
# Run the course notebooks' tests against one kernel binary.
#
#   tools/run-notebook-tests.sh KERNEL_BIN
#
# 1. tools/notebooks.py check: every stored notebook matches its source in notebooks/src, every
#    code cell was run, errors only where a cell is marked NBVAL_RAISES_EXCEPTION, and at least
#    80% of the code cells are compared (not NBVAL_IGNORE_OUTPUT / NBVAL_SKIP).
# 2. nbval, strict (not --nbval-lax): each notebook run afresh by the kernel, every cell's
#    outputs compared with the stored ones after tests/notebooks/sanitize.cfg.
# The kernelspec is installed into a temporary directory for the run. Fails when either fails
# or finds nothing to check.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 KERNEL_BIN" >&2; exit 2; }
KERNEL=$1
[ -x "$KERNEL" ] || { echo "error: $KERNEL is not an executable file" >&2; exit 2; }
KERNEL=$(cd "$(dirname "$KERNEL")" && pwd)/$(basename "$KERNEL")

cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=$PWD/.venv/bin/python
[ -x "$PY" ] || { echo "error: $PY missing; run tools/setup.sh (or make setup)" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mt-notebooks.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
"$KERNEL" install --prefix "$WORK" >/dev/null
export JUPYTER_PATH=$WORK/share/jupyter
export JUPYTER_PLATFORM_DIRS=1
export JUPYTER_RUNTIME_DIR=$WORK/runtime
export PYTHONDONTWRITEBYTECODE=1

status=0
echo "-- tools/notebooks.py check"
"$PY" tools/notebooks.py check || status=1

echo "-- pytest --nbval (strict)"
mapfile -t notebooks < <(ls notebooks/*.ipynb)
[ ${#notebooks[@]} -gt 0 ] || { echo "error: no notebooks" >&2; exit 1; }
"$PY" -m pytest -p no:cacheprovider --nbval "${notebooks[@]}" --nbval-kernel-name minitorch \
    --nbval-sanitize-with tests/notebooks/sanitize.cfg --nbval-cell-timeout 1200 -q || status=1
exit $status
