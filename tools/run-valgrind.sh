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
# VALGRIND_JOBS (default 1): how many scripts are checked at once, each by its own valgrind
# (memcheck runs a process on one core at a time, so a machine with more cores checks them
# sooner side by side; what each script is checked for is the same).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 KERNEL_BIN" >&2; exit 2; }
KERNEL=$1
[ -x "$KERNEL" ] || { echo "error: $KERNEL is not an executable file" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "error: valgrind missing (tools/setup.sh installs it)" >&2; exit 1; }
jobs=${VALGRIND_JOBS:-1}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "error: VALGRIND_JOBS must be a positive number" >&2; exit 2; }
cd "$(dirname "${BASH_SOURCE[0]}")/.."
standin=$(dirname "$KERNEL")/libmt_cuda_standin.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# check I SCRIPT: valgrind's exit status into $work/I.rc, its report into $work/I.log
check() {
    local env=() rc=0
    [[ $2 == tests/scripts/cuda/* ]] && env=(env "MT_CUDA_PLUGIN=$standin")
    "${env[@]}" valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
        --errors-for-leak-kinds=definite,indirect --error-exitcode=3 --quiet \
        "$KERNEL" run "$2" >/dev/null 2>"$work/$1.log" || rc=$?
    echo "$rc" > "$work/$1.rc"
}

scripts=(tests/scripts/*.mt tests/scripts/cuda/standin.mt)
for i in "${!scripts[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    check "$i" "${scripts[$i]}" &
done
wait

bad=0
for i in "${!scripts[@]}"; do
    if [ "$(cat "$work/$i.rc")" -eq 3 ]; then
        echo "FAIL ${scripts[$i]}"
        grep '^==[0-9]*==' "$work/$i.log" | head -40
        bad=$((bad + 1))
    else
        echo "ok   ${scripts[$i]}"
    fi
done
echo "valgrind memcheck: ${#scripts[@]} scripts, $bad with memory errors or leaks"
[ "$bad" -eq 0 ]
