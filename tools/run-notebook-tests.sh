#!/usr/bin/env bash
# Run the course notebooks' tests against one kernel binary.
#
#   tools/run-notebook-tests.sh KERNEL_BIN
#
# 1. tools/notebooks.py check: every stored notebook matches its source in notebooks/src, every
#    code cell was run, errors only where a cell is tagged raises-exception, and at least
#    80% of the code cells are compared (not tagged nbval-ignore-output / nbval-skip); the README's
#    Colab badges and every set-up cell name notebooks/src/colab_repo.txt's repository (and
#    tests/notebooks/test_colab_repo.py checks set-repo and that check on a copy,
#    tests/notebooks/test_file_cells.py the cells a source makes from the kernel's files,
#    tests/notebooks/test_work_copy.py the copies make lab serves);
#    the task cells with their solutions and as students get them are nbgrader's to grade:
#    tools/run-assignment-tests.sh.
# 2. nbval, strict (not --nbval-lax): each notebook run afresh by the kernel, every cell's
#    outputs compared with the stored ones after tests/notebooks/sanitize.cfg. nbval reads its
#    markers from the cells' tags (tools/notebooks.py turns the sources' NBVAL_ comments into them).
#    It is also what Run All does in JupyterLab: a cell that raises fails nbval unless it is
#    tagged `raises-exception`, the tag Run All goes on past, and check (1) makes every tagged
#    cell's stored output an error, which nbval compares.
# The kernelspec is installed into a temporary directory for the run. Fails when any of them
# fails or finds nothing to check.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/kernel-test-env.sh"

status=0
echo "-- tools/notebooks.py check"
"$PY" tools/notebooks.py check || status=1

echo "-- tests/notebooks: set-repo and check on a copy; the cells made from the kernel's files"
"$PY" -m pytest -p no:cacheprovider -q tests/notebooks/test_colab_repo.py \
    tests/notebooks/test_file_cells.py tests/notebooks/test_work_copy.py || status=1

echo "-- pytest --nbval (strict)"
# the notebooks built from notebooks/src (colab_setup.ipynb is Colab's Python, not ours)
mapfile -t notebooks < <(for src in notebooks/src/*.mt; do
    name=$(basename "$src" .mt); echo "notebooks/$name.ipynb"; done)
[ ${#notebooks[@]} -gt 0 ] || { echo "error: no notebooks" >&2; exit 1; }
"$PY" -m pytest -p no:cacheprovider --nbval "${notebooks[@]}" --nbval-kernel-name minitorch \
    --nbval-sanitize-with tests/notebooks/sanitize.cfg --nbval-cell-timeout 1200 -q || status=1

exit $status
