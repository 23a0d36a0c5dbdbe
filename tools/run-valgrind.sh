#!/usr/bin/env bash
# valgrind memcheck over scripted sessions: every language script of tests/scripts, and the cuda
# backend's (tests/scripts/cuda/standin.mt, through its host stand-in; diagnostics.mt is left out:
# it measures the machine's peaks and times compare(), minutes under valgrind), run by
# `minitorch-kernel run` under memcheck.
#
#   tools/run-valgrind.sh KERNEL_BIN
#
# A script may end in an error on purpose (its own exit status 1); what fails the run is a
# memcheck error or a leak (definitely or indirectly lost), which valgrind reports with exit
# status 3. Prints one line per script and a summary; fails when valgrind is missing.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 KERNEL_BIN" >&2; exit 2; }
KERNEL=$1
[ -x "$KERNEL" ] || { echo "error: $KERNEL is not an executable file" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "error: valgrind missing (tools/setup.sh installs it)" >&2; exit 1; }
cd "$(dirname "${BASH_SOURCE[0]}")/.."
standin=$(dirname "$KERNEL")/libmt_cuda_standin.so
log=$(mktemp)
trap 'rm -f "$log"' EXIT
bad=0 n=0
for script in tests/scripts/*.mt tests/scripts/cuda/standin.mt; do
    env=()
    [[ $script == tests/scripts/cuda/* ]] && env=(env "MT_CUDA_PLUGIN=$standin")
    rc=0
    "${env[@]}" valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
        --errors-for-leak-kinds=definite,indirect --error-exitcode=3 --quiet \
        "$KERNEL" run "$script" >/dev/null 2>"$log" || rc=$?
    n=$((n + 1))
    if [ "$rc" -eq 3 ]; then
        echo "FAIL $script"
        grep '^==[0-9]*==' "$log" | head -40
        bad=$((bad + 1))
    else
        echo "ok   $script"
    fi
done
echo "valgrind memcheck: $n scripts, $bad with memory errors or leaks"
[ "$bad" -eq 0 ]
