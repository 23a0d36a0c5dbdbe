#!/bin/bash
# run.sh KERNEL PYTHON — students' njit kernels against Numba (make bench-jit).
# MiniTorch's textbook Task 3.1/3.2 solutions: written in the language and compiled by the
# kernel (kernels.mt), and the same code under Numba (../jit_choice/numba_side.py; PYTHON has
# numpy and numba), on float32 storage, 1 and 2 threads. The kernel compiles into an empty cache
# folder, so the first call includes the C compiler. Per row, after a fifth of a second of
# untimed calls: the median of 15 calls back to back (min-max), the ratio to Numba's, the
# built-in fast op on the same shapes (timed after the kernel's calls: it allocates its output),
# both first calls (the median of three processes a side) and their ratio where Numba compiled
# (its first call a tenth of a second over its steady ones; a row whose function and types an
# earlier row compiled shows "-"), and the kernel's
# second call (where it waits for gcc's build when the first ran tcc's, or ran gcc's build of a
# loop nest as written).
set -euo pipefail
kernel=${1:?usage: run.sh KERNEL PYTHON}
py=${2:?usage: run.sh KERNEL PYTHON}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
    "numba $("$py" -c 'import numba; print(numba.__version__)'), $(cc --version | head -1)"
# One process of each side on an empty cache: $1 is "full" (every row timed) or "first" (each
# row's first call only); the JSON goes to $work/ours$2.json and $work/numba$2.json.
ours() {
    { echo "%threads $t"; echo "FIRST_ONLY = $([ "$1" = first ] && echo 1 || echo 0)"
      cat "$here/kernels.mt"; } > "$work/kernels.mt"
    rm -rf "$work/cache"
    { echo "{"; XDG_CACHE_HOME="$work/cache" "$kernel" run "$work/kernels.mt" | grep '^"'
      echo '"end": {}}'; } > "$work/ours$2.json"
}
numba() {
    (cd "$here/../jit_choice" && NUMBA_NUM_THREADS=$t "$py" numba_side.py "$t" "$1") \
        > "$work/numba$2.json"
}
for t in 1 2; do
    # the full run, then two more of first calls, the sides alternating: a first call is one
    # sample of a compile and a run, whose spread on a shared machine is tens of milliseconds
    ours full 0; numba full 0; ours first 1; numba first 1; ours first 2; numba first 2
    echo "== $t thread(s): ms per call, median of 15 (min-max); first calls, median of 3 processes (min-max)"
    "$py" - "$work" <<'PYEOF'
import json, sys
w = sys.argv[1]
ours = [json.load(open(f"{w}/ours{i}.json")) for i in range(3)]
numba = [json.load(open(f"{w}/numba{i}.json")) for i in range(3)]
assert ours[0].pop("checked")["ok"], "the compiled kernels gave wrong results"
f = lambda r: "%7.2f (%.2f-%.2f)" % (r["median_ms"], r["min_ms"], r["max_ms"])
def first(runs, k):
    v = sorted(r[k]["first_s"] for r in runs)
    return v[1], "%.3f (%.3f-%.3f) s" % (v[1], v[0], v[2])
print("  %-22s %-24s %-24s %-9s %-10s %-9s %-26s %-26s %-8s %s" % (
      "row", "kernel njit", "numba", "/numba", "built-in", "/built-in", "first call: kernel",
      "numba", "numba/", "kernel's 2nd"))
for k, o in ours[0].items():
    if k in ("end", "checked"):
        continue
    n = numba[0][k]
    (ok, os_), (nk, ns) = first(ours, k), first(numba, k)
    print("  %-22s %-24s %-24s %-9s %-10s %-9s %-26s %-26s %-8s %.3f s" % (
        k, f(o), f(n), "%.2fx" % (o["median_ms"] / n["median_ms"]), "%.2f" % o["builtin_ms"],
        "%.1fx" % (o["median_ms"] / o["builtin_ms"]), os_, ns,
        "%.1fx" % (nk / ok) if nk - n["median_ms"] / 1e3 > 0.1 else "-", o["second_s"]))
PYEOF
done
