#!/bin/bash
# run.sh PYTHON — the experiment behind the choice of code generator for students' njit kernels
# (docs/ARCHITECTURE.md, "Students' kernels: the code generator"). PYTHON must have numpy and
# numba. It measures, on this machine, side by side:
#   - Numba compiling and running MiniTorch's textbook Task 3.1/3.2 solutions (numba_side.py);
#   - gen.c, the C the kernel's compiler emits for the same functions (index helpers inlined,
#     Python's // and %, bounds checks, prange as chunks of an OpenMP loop), compiled by the
#     system compilers, then run through ctypes on the same arrays (c_side.py);
#   - compile latency (best of 5) and peak memory of each compiler, tcc included when present.
# Threads: 1 and 2 (NUMBA_NUM_THREADS / OMP_NUM_THREADS), float32 storage on both sides.
set -euo pipefail
py=${1:?usage: run.sh PYTHON}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$here"

best_of_5() { # command... : the fastest wall time of 5 runs, in ms
    local best=
    for _ in 1 2 3 4 5; do
        local s e t
        s=$(date +%s%N)
        "$@" >/dev/null 2>&1
        e=$(date +%s%N)
        t=$(((e - s) / 1000000))
        if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    echo "$best"
}

python3 - "$work/map_only.c" <<'PYEOF'
import sys
s = open("gen.c").read()
open(sys.argv[1], "w").write(s[:s.index("int k_map")] + s[s.index("int k_map"):s.index("int k_zip")])
PYEOF

echo "== machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "== compile latency of one kernel (tensor_map), best of 5, and peak RSS"
for cc in "gcc -O2 -fopenmp" "gcc -O1 -fopenmp" "clang -O2 -fopenmp" "tcc"; do
    set -- $cc
    command -v "$1" >/dev/null || { echo "  $cc: not installed"; continue; }
    ms=$(best_of_5 $cc -DBOUNDS=1 -fPIC -shared "$work/map_only.c" -o "$work/m.so")
    rss=$( { /usr/bin/time -f %M $cc -DBOUNDS=1 -fPIC -shared "$work/map_only.c" -o "$work/m.so"; } 2>&1 | tail -1)
    echo "  $cc: ${ms} ms, ${rss} KiB"
done
echo "== compile latency of all four kernels in one file, best of 5"
for cc in "gcc -O2 -fopenmp" "clang -O2 -fopenmp"; do
    echo "  $cc: $(best_of_5 $cc -DBOUNDS=1 -fPIC -shared gen.c -o "$work/all.so") ms"
done

gcc -O2 -fopenmp -DBOUNDS=1 -fPIC -shared gen.c -o "$work/gen_b.so"
gcc -O2 -fopenmp -DBOUNDS=0 -fPIC -shared gen.c -o "$work/gen_n.so"
for t in 1 2; do
    echo "== $t thread(s): milliseconds per call, median of 7 (min-max); Numba's first call in s"
    NUMBA_NUM_THREADS=$t "$py" numba_side.py "$t" > "$work/numba.json"
    OMP_NUM_THREADS=$t "$py" c_side.py "$work/gen_b.so" > "$work/cb.json"
    OMP_NUM_THREADS=$t "$py" c_side.py "$work/gen_n.so" > "$work/cn.json"
    "$py" - "$work/numba.json" "$work/cb.json" "$work/cn.json" <<'PYEOF'
import json, sys
n, b, u = (json.load(open(p)) for p in sys.argv[1:])
f = lambda r: "%7.2f (%.2f-%.2f)" % (r["median_ms"], r["min_ms"], r["max_ms"])
print("  %-24s %-26s %-26s %-26s %s" % ("row", "numba", "gcc -O2, bounds checked", "gcc -O2, unchecked", "numba first call"))
for k in [k for k in n if k in b]:
    print("  %-24s %-26s %-26s %-26s %.2f s" % (k, f(n[k]), f(b[k]), f(u[k]), n[k]["first_s"]))
PYEOF
done
