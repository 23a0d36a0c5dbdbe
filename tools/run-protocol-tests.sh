#!/usr/bin/env bash
# Run the Jupyter protocol test suites against one kernel binary.
#
#   tools/run-protocol-tests.sh KERNEL_BIN [--sanitized]
#
# Suites (both always run; the script fails if either fails or finds no tests):
#   jupyter_kernel_test  tests/protocol/jkt_*.py, run with `python -m unittest` on purpose
#   own tests            tests/protocol/test_*.py, run with pytest
# The tests read MT_KERNEL_BIN (exported here as an absolute path) and install the kernelspec
# into a temporary directory themselves.
#
# --sanitized: the binary was built with -DMT_SANITIZE=ON or -DMT_TSAN=ON. Kernel processes are
# started by jupyter_client, so their sanitizer reports would be lost; ASAN_OPTIONS,
# UBSAN_OPTIONS and TSAN_OPTIONS send them to files in a fresh directory instead, and any report
# found there fails the run.
#
# Environment:
#   PROTOCOL_PYTEST_ARGS   extra pytest arguments, shell-quoted, e.g. '-m "not slow"'
#   PROTOCOL_TIMEOUT       seconds per suite before it is killed (default 1200)
set -euo pipefail

usage() { echo "usage: $0 KERNEL_BIN [--sanitized]" >&2; exit 2; }

KERNEL=""
SANITIZED=0
for arg in "$@"; do
    case "$arg" in
        --sanitized) SANITIZED=1 ;;
        -h|--help) usage ;;
        -*) echo "unknown option: $arg" >&2; usage ;;
        *) [ -z "$KERNEL" ] || usage; KERNEL=$arg ;;
    esac
done
[ -n "$KERNEL" ] || usage
if [ ! -f "$KERNEL" ] || [ ! -x "$KERNEL" ]; then
    echo "error: $KERNEL is not an executable file" >&2
    exit 2
fi
KERNEL=$(cd "$(dirname "$KERNEL")" && pwd)/$(basename "$KERNEL")

cd "$(dirname "${BASH_SOURCE[0]}")/.."
PY=$PWD/.venv/bin/python
[ -x "$PY" ] || { echo "error: $PY missing; run tools/setup.sh (or make setup)" >&2; exit 2; }

TIMEOUT=${PROTOCOL_TIMEOUT:-1200}
eval "PYTEST_EXTRA=(${PROTOCOL_PYTEST_ARGS:-})"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mt-protocol.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

export MT_KERNEL_BIN=$KERNEL
export JUPYTER_PLATFORM_DIRS=1                  # silence jupyter_core's migration warning
export JUPYTER_RUNTIME_DIR=${JUPYTER_RUNTIME_DIR:-$WORK/runtime}   # connection files
export PYTHONDONTWRITEBYTECODE=1

LOGDIR=""
if [ "$SANITIZED" -eq 1 ]; then
    LOGDIR=$WORK/sanitizer-logs
    mkdir -p "$LOGDIR"
    export ASAN_OPTIONS="log_path=$LOGDIR/asan:detect_leaks=1"
    export UBSAN_OPTIONS="log_path=$LOGDIR/ubsan:print_stacktrace=1"
    # exitcode=0: a report is judged from its file below, not by the kernel's exit status
    export TSAN_OPTIONS="log_path=$LOGDIR/tsan:second_deadlock_stack=1:exitcode=0:suppressions=$PWD/tools/tsan.supp"
fi

declare -a NAMES=() RESULTS=()
record() { NAMES+=("$1"); RESULTS+=("$2"); }

echo "== protocol tests: $KERNEL${LOGDIR:+ (sanitized)}"

# --- jupyter_kernel_test, under unittest --------------------------------------------------
log=$WORK/unittest.log
echo "-- jupyter_kernel_test (unittest discover -s tests/protocol -p 'jkt_*.py')"
set +e
timeout --kill-after=30 "$TIMEOUT" \
    "$PY" -m unittest discover -v -s tests/protocol -p 'jkt_*.py' 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -eq 0 ] && grep -q '^Ran 0 tests' "$log"; then
    echo "FAIL: jupyter_kernel_test suite ran no tests"
    rc=5
fi
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAIL: jupyter_kernel_test suite timed out after ${TIMEOUT}s"
fi
if [ "$rc" -eq 0 ]; then record "jupyter_kernel_test" PASS; else record "jupyter_kernel_test" "FAIL (exit $rc)"; fi

# --- own tests, under pytest ---------------------------------------------------------------
echo "-- pytest tests/protocol ${PYTEST_EXTRA[*]}"
set +e
timeout --kill-after=30 "$TIMEOUT" \
    "$PY" -m pytest -q -p no:cacheprovider tests/protocol "${PYTEST_EXTRA[@]}"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
    echo "FAIL: pytest collected no tests in tests/protocol"
elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    echo "FAIL: pytest suite timed out after ${TIMEOUT}s"
fi
if [ "$rc" -eq 0 ]; then record "pytest tests/protocol" PASS; else record "pytest tests/protocol" "FAIL (exit $rc)"; fi

# --- sanitizer reports from kernel subprocesses ----------------------------------------------
if [ -n "$LOGDIR" ]; then
    shopt -s nullglob
    reports=("$LOGDIR"/*)
    shopt -u nullglob
    if [ "${#reports[@]}" -eq 0 ]; then
        record "sanitizer reports" "PASS (none)"
    else
        for f in "${reports[@]}"; do
            echo "===== sanitizer report: $(basename "$f") ====="
            cat "$f"
        done
        record "sanitizer reports" "FAIL (${#reports[@]} report files)"
    fi
fi

# --- summary ---------------------------------------------------------------------------------
status=0
echo
echo "protocol tests for $KERNEL${LOGDIR:+ (sanitized)}:"
for i in "${!NAMES[@]}"; do
    printf '  %-24s %s\n' "${NAMES[$i]}" "${RESULTS[$i]}"
    case "${RESULTS[$i]}" in FAIL*) status=1 ;; esac
done
exit "$status"
