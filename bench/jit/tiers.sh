#!/bin/bash
# tiers.sh KERNEL — the two builds of a student's kernel (docs/ARCHITECTURE.md, "Two builds"):
# for each unit of bench/jit/kernels.mt, what gcc -O2 (as the kernel runs it) and tcc take to
# compile it, best of 5; then every row run on each build, 1 thread, ms per call, median of 7:
# gcc's from the kernel's cache, tcc's by putting tcc's objects in the cache in their place.
set -euo pipefail
kernel=${1:?usage: tiers.sh KERNEL}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{ echo "%threads 1"; cat "$here/kernels.mt"; } > "$work/kernels.mt"
rows() { XDG_CACHE_HOME=$1 MT_JIT_QUICK=0 "$kernel" run "$work/kernels.mt" | grep '^"' | grep -v checked; }
rows "$work/gcc" > "$work/gcc.txt"
cp -r "$work/gcc" "$work/tcc"
best() { # best of 5 wall-clock ms of the command
    local b=999999 s e
    for _ in 1 2 3 4 5; do
        s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$((($(date +%s%N) - s) / 1000000))
        ((e < b)) && b=$e
    done
    echo $b
}
echo "== $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(cc --version | head -1); $(tcc -v)"
echo "== compile, best of 5 (ms): gcc -O2 -fopenmp -shared, tcc -shared; the unit's C in bytes"
for c in "$work"/gcc/minitorch-kernel/jit/*.c; do
    so=$work/tcc/minitorch-kernel/jit/$(basename "$c" .c).so
    g=$(best cc -O2 -fopenmp -fwrapv -ffp-contract=off -fvect-cost-model=cheap -fPIC -shared -w -o "$work/x.so" "$c" -lm)
    t=$(best tcc -fPIC -shared -w -o "$so" "$c" -lm)
    tcc -fPIC -shared -w -o "$so" "$c" -lm
    # which kernel: by the names of its variables
    k=map
    grep -q v_a_index "$c" && k=zip
    grep -q v_reduce_dim "$c" && k=reduce
    grep -q 'JIT_UNCHECKED 1' "$c" && k="reduce, unchecked"
    grep -q v_a_batch_stride "$c" && k=matmul
    echo "  $k ($(basename "$c")): gcc $g, tcc $t; $(wc -c < "$c") bytes"
done
rows "$work/tcc" > "$work/tcc.txt"
echo "== run, 1 thread, ms per call, median of 7: gcc's build, tcc's"
python3 - "$work/gcc.txt" "$work/tcc.txt" <<'PYEOF'
import json, sys
g, t = ({l.split(": ", 1)[0]: json.loads(l.split(": ", 1)[1].rstrip().rstrip(","))
         for l in open(p)} for p in sys.argv[1:])
for k in g:
    print("  %-30s %8.2f %8.2f  %.1fx" % (k, g[k]["median_ms"], t[k]["median_ms"],
                                        t[k]["median_ms"] / g[k]["median_ms"]))
PYEOF
