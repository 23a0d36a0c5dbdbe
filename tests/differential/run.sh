#!/usr/bin/env bash
# run.sh BUILD_DIR [pytest args...] — the differential suite (libminitorch vs numpy).
#
# Runs tests/differential with the `ci` hypothesis profile against BUILD_DIR/libminitorch.so
# (build it with: cmake -S . -B BUILD_DIR -DMT_BUILD_KERNEL=OFF &&
#                 cmake --build BUILD_DIR --target minitorch_shared).
# Prints pytest's summary line last. Exits non-zero when the library is missing (a suite that
# cannot run must fail, not pass), when the venv is missing, or when any test fails.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [[ $# -lt 1 ]]; then
    echo "usage: $0 BUILD_DIR [pytest args...]" >&2
    exit 2
fi
build="$(cd "$1" 2>/dev/null && pwd)" || { echo "run.sh: no build directory $1" >&2; exit 1; }
shift
lib="$build/libminitorch.so"
if [[ ! -f "$lib" ]]; then
    echo "run.sh: $lib not found (build the minitorch_shared target)" >&2
    exit 1
fi
py="$root/.venv/bin/python"
if [[ ! -x "$py" ]]; then
    echo "run.sh: $py not found (make setup)" >&2
    exit 1
fi

cd "$root"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
set +e
MT_ENGINE_LIB="$lib" PYTHONDONTWRITEBYTECODE=1 \
    "$py" -m pytest tests/differential -q -p no:cacheprovider --hypothesis-profile=ci "$@" \
    2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
echo
summary="$(grep -E '^(=+ )?[0-9]+ (passed|failed|error)|^(=+ )?(no tests ran|[0-9]+ (skipped|deselected))' "$log" | tail -n 1)"
echo "differential: ${summary:-no pytest summary line (pytest exit status $rc)}"
if [[ $rc -eq 0 && -z "$summary" ]]; then rc=1; fi
exit "$rc"
