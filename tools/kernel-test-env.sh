# kernel-test-env.sh — sourced by the test runners that start the kernel through Jupyter
# (run-notebook-tests.sh, run-browser-tests.sh, run-assignment-tests.sh) with the kernel binary
# as $1: checks it and the venv, goes to the repository root, and installs the kernelspec into a
# temporary directory that Jupyter is pointed at (removed on exit), with Jupyter's configuration,
# runtime and JupyterLab's workspaces in it too. Sets KERNEL (absolute), PY and WORK.
[ $# -eq 1 ] || { echo "usage: $0 KERNEL_BIN" >&2; exit 2; }
KERNEL=$1
[ -x "$KERNEL" ] || { echo "error: $KERNEL is not an executable file" >&2; exit 2; }
KERNEL=$(cd "$(dirname "$KERNEL")" && pwd)/$(basename "$KERNEL")

cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=$PWD/.venv/bin/python
[ -x "$PY" ] || { echo "error: $PY missing; run tools/setup.sh (or make setup)" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mt-kernel-test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
"$KERNEL" install --prefix "$WORK" >/dev/null
export MT_KERNEL_BIN=$KERNEL
export JUPYTER_PATH=$WORK/share/jupyter
export JUPYTER_PLATFORM_DIRS=1
export JUPYTER_RUNTIME_DIR=$WORK/runtime
# the user's own Jupyter configuration (~/.jupyter: a jupyter_client or nbgrader config, JupyterLab
# settings and workspaces) changes nothing the tests see
export JUPYTER_CONFIG_DIR=$WORK/config
export JUPYTERLAB_WORKSPACES_DIR=$WORK/workspaces
export PYTHONDONTWRITEBYTECODE=1
