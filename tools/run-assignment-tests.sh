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
export PATH=$(dirname "$PY"):$PATH       # the test reads the gradebook, which runs alembic
# Two pytest processes, one a core: the catalogue (the longest: a class of planted bugs and
# cheats) beside the rest. Each grades in a course directory of its own; their logs are printed
# one after the other once both end, and the suite fails when either does.
cd tests/assignments
"$PY" -m pytest -p no:cacheprovider -q test_catalogue.py --durations=3 >"$WORK/catalogue.log" 2>&1 &
catalogue=$!
status=0
"$PY" -m pytest -p no:cacheprovider -q test_nbgrader.py test_grading.py --durations=3 || status=1
wait "$catalogue" || status=1
echo "-- test_catalogue.py (ran beside the tests above)"
cat "$WORK/catalogue.log"
exit $status
