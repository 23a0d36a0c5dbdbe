#!/bin/sh
# run_mt.sh KERNEL FILE.mt — runs a language script with `KERNEL run FILE.mt` and compares what
# it prints with the expectations written in the script (format: tests/scripts/README.md).
# Exit status 0 when everything matches; otherwise the differences on stderr and status 1.
# POSIX sh, sed, grep and awk only, so ctest needs nothing beyond the build.
set -u
kernel=$1
script=$2
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

# expectations, in order: "= TEXT" (exact line) or "~ REGEX" (extended regex for the whole line)
sed -n -e 's/^[[:space:]]*# expect: \{0,1\}/= /p' -e 's/^[[:space:]]*# expect-re: \{0,1\}/~ /p' \
    "$script" > "$work/expected"
want_error=$(sed -n 's/^[[:space:]]*# expect-error: \{0,1\}//p' "$script" | tail -n 1)
sed -n 's/^[[:space:]]*# expect-tb: \{0,1\}//p' "$script" > "$work/traceback"

"$kernel" run "$script" > "$work/raw" 2> "$work/stderr"
status=$?
# Left out, as they depend on the machine and not on the script: a timing's busy-machine note
# (what else the machine runs; tests/kernel/lib/test_busy.c checks it); whether
# parallel_diagnostics says that a kernel's first call ran tcc's build (or gcc's of its loops as
# written), which depends on the compile cache (a kernel compiled before loads the last build at
# once; tests/kernel/lib/test_jit.c checks them); and train()'s live progress between its first
# line ("epoch 0/N starting") and its last ("epoch N/N done"), updated at most every quarter of
# a second, so that a slow or busy machine shows more of them (`run` prints every update).
grep -Ev "^(note: (other programs|the hypervisor|this process's threads) |  its first call ran (a build tcc made|gcc's quicker build) |\[[#.]+\] epoch [0-9]+/[0-9]+  loss )" \
    "$work/raw" > "$work/stdout" || true

fail=0
nwant=$(wc -l < "$work/expected")
ngot=$(wc -l < "$work/stdout")
if [ "$nwant" -ne "$ngot" ]; then
    printf '%s: expected %s lines of output, got %s\n' "$script" "$nwant" "$ngot" >&2
    fail=1
fi
i=0
while IFS= read -r want; do
    i=$((i + 1))
    got=$(sed -n "${i}p" "$work/stdout")
    case $want in
    "= "*) [ "$got" = "${want#= }" ] && continue ;;
    "~ "*) printf '%s\n' "$got" | grep -Eq "^(${want#\~ })\$" && continue ;;
    esac
    printf "%s: line %s: expected '%s', got '%s'\n" "$script" "$i" "${want#? }" "$got" >&2
    fail=1
done < "$work/expected"

if [ -n "$want_error" ]; then
    last=$(tail -n 1 "$work/stderr")
    if [ "$status" -ne 1 ] || [ "$last" != "$want_error" ]; then
        printf "%s: expected the error '%s' (status 1), got status %s: '%s'\n" "$script" \
            "$want_error" "$status" "$last" >&2
        fail=1
    fi
    # expect-tb lines: lines of the traceback, in this order (others may come between)
    if [ -s "$work/traceback" ] && ! awk 'NR == FNR { want[++n] = $0; next }
              k < n && $0 == want[k + 1] { k++ }
              END { if (k < n) { print "missing traceback line: \047" want[k + 1] "\047"; exit 1 } }' \
        "$work/traceback" "$work/stderr" >&2; then
        fail=1
    fi
elif [ "$status" -ne 0 ] || [ -s "$work/stderr" ]; then
    printf '%s: unexpected failure (status %s):\n' "$script" "$status" >&2
    cat "$work/stderr" >&2
    fail=1
fi
if [ "$fail" -ne 0 ]; then
    echo "---- what it printed:" >&2
    cat "$work/stdout" >&2
    if [ -n "$want_error" ]; then
        echo "---- on stderr:" >&2
        cat "$work/stderr" >&2
    fi
    exit 1
fi
printf '%s: %s lines as expected%s\n' "$script" "$nwant" "${want_error:+, then $want_error}"
