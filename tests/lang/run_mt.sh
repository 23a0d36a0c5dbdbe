#!/bin/sh
# run_mt.sh KERNEL FILE.mt — runs a language script with `KERNEL run FILE.mt` and compares what
# it prints with the expectations written in the script (format: tests/lang/README.md).
# Exit status 0 when everything matches; otherwise the differences on stderr and status 1.
set -u
kernel=$1
script=$2
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

# expectations, in order: "= TEXT" (exact line) or "~ REGEX" (extended regex for the whole line)
sed -n -e 's/^[[:space:]]*# expect: \{0,1\}/= /p' -e 's/^[[:space:]]*# expect-re: \{0,1\}/~ /p' \
    "$script" > "$work/expected"
want_error=$(sed -n 's/^[[:space:]]*# expect-error: \{0,1\}//p' "$script" | tail -n 1)

"$kernel" run "$script" > "$work/stdout" 2> "$work/stderr"
status=$?

fail=0
nwant=$(wc -l < "$work/expected")
ngot=$(wc -l < "$work/stdout")
if [ "$nwant" -ne "$ngot" ]; then
    echo "$script: expected $nwant lines of output, got $ngot" >&2
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
    echo "$script: line $i: expected '${want#? }', got '$got'" >&2
    fail=1
done < "$work/expected"

if [ -n "$want_error" ]; then
    last=$(tail -n 1 "$work/stderr")
    if [ "$status" -ne 1 ] || [ "$last" != "$want_error" ]; then
        echo "$script: expected the error '$want_error' (status 1), got status $status: '$last'" >&2
        fail=1
    fi
elif [ "$status" -ne 0 ] || [ -s "$work/stderr" ]; then
    echo "$script: unexpected failure (status $status):" >&2
    cat "$work/stderr" >&2
    fail=1
fi
if [ "$fail" -ne 0 ]; then
    echo "---- what it printed:" >&2
    cat "$work/stdout" >&2
    exit 1
fi
echo "$script: $nwant lines as expected${want_error:+, then $want_error}"
