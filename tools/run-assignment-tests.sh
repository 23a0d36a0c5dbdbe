#!/usr/bin/env bash
# The course notebooks as nbgrader assignments (tests/assignments): release them with real
# nbgrader from .venv, grade the solutions, the untouched release, a catalogue of planted bugs
# and of cheats, and a class with a crash and a hang, all run by one kernel binary.
#
#   tools/run-assignment-tests.sh KERNEL_BIN
#
# The kernelspec goes into a temporary directory, and so does the course directory.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/kernel-test-env.sh"
export JUPYTER_CONFIG_DIR=$WORK/config  # no user nbgrader_config.py leaks in
export PATH=$(dirname "$PY"):$PATH       # the test reads the gradebook, which runs alembic
"$PY" -m pytest -p no:cacheprovider -q tests/assignments --durations=5
