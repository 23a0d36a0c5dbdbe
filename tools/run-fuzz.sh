#!/usr/bin/env bash
# run-fuzz.sh SECONDS JOBS — every libFuzzer target of build-fuzz/ (make fuzz, and make test's
# smoke): each runs its whole seed corpus (tests/fuzz/corpus/NAME, the inputs of past findings),
# then fuzzes for SECONDS with tests/fuzz/NAME.dict when there is one. JOBS targets run at once
# (each is one process); a target's output is printed whole when it ends. Crashes are written to
# build-fuzz/artifacts/NAME-*. Fails when any target fails or none exists.
set -uo pipefail
seconds=$1
jobs=$2
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
mkdir -p build-fuzz/artifacts
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
targets=(build-fuzz/fuzz_*)
[[ -x ${targets[0]} ]] || { echo "run-fuzz.sh: no fuzz target in build-fuzz/"; exit 1; }

run_one() {
    local t=$1 name=${1##*/fuzz_} work dict=()
    work=$(mktemp -d)
    [[ -f tests/fuzz/$name.dict ]] && dict=(-dict="tests/fuzz/$name.dict")
    echo "==== $t ($seconds s, seeds tests/fuzz/corpus/$name)"
    "$t" -max_total_time="$seconds" -max_len=65536 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="build-fuzz/artifacts/$name-" "${dict[@]}" \
        "$work" "tests/fuzz/corpus/$name"
    local status=$?
    rm -rf "$work"
    return $status
}

status=0
running=()
finish() { # waits for the oldest target still running, prints its log
    local entry=${running[0]} pid log
    running=("${running[@]:1}")
    pid=${entry%%:*}
    log=${entry#*:}
    wait "$pid" || status=1
    cat "$log"
}
for t in "${targets[@]}"; do
    ((${#running[@]} >= jobs)) && finish
    log=$logs/${t##*/}.log
    run_one "$t" >"$log" 2>&1 &
    running+=("$!:$log")
done
while ((${#running[@]} > 0)); do finish; done
exit $status
