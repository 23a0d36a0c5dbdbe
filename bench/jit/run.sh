#!/bin/bash
# run.sh KERNEL PYTHON — students' njit kernels against Numba (make bench-jit).
# MiniTorch's textbook Task 3.1/3.2 solutions: written in the language and compiled by the
# kernel (kernels.mt), and the same code under Numba (../jit_choice/numba_side.py; PYTHON has
# numpy and numba), on float32 storage, 1 and 2 threads. The kernel compiles into an empty cache
# folder, so the first call includes the C compiler. Per row, after a fifth of a second of
# untimed calls: the median of 15 calls back to back (min-max), the ratio to Numba's, the
# built-in fast op on the same shapes (timed after the kernel's calls: it allocates its output),
# both first calls, and the kernel's second call (where it waits for gcc's build when the first
# ran tcc's, or ran gcc's build of a loop nest as written).
set -euo pipefail
kernel=${1:?usage: run.sh KERNEL PYTHON}
py=${2:?usage: run.sh KERNEL PYTHON}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
    "numba $("$py" -c 'import numba; print(numba.__version__)'), $(cc --version | head -1)"
for t in 1 2; do
    { echo "%threads $t"; cat "$here/kernels.mt"; } > "$work/kernels.mt"
    { echo "{"; XDG_CACHE_HOME="$work/cache$t" "$kernel" run "$work/kernels.mt" | grep '^"'; echo '"end": {}}'; } \
        > "$work/ours.json"
    (cd "$here/../jit_choice" && NUMBA_NUM_THREADS=$t "$py" numba_side.py "$t") > "$work/numba.json"
    echo "== $t thread(s): ms per call, median of 15 (min-max)"
    "$py" - "$work/ours.json" "$work/numba.json" <<'PYEOF'
import json, sys
ours, numba = (json.load(open(p)) for p in sys.argv[1:])
assert ours.pop("checked")["ok"], "the compiled kernels gave wrong results"
ours.pop("end")
f = lambda r: "%7.2f (%.2f-%.2f)" % (r["median_ms"], r["min_ms"], r["max_ms"])
print("  %-22s %-24s %-24s %-9s %-10s %-9s %s" % ("row", "kernel njit", "numba", "/numba",
      "built-in", "/built-in", "first call: kernel, numba; kernel's 2nd"))
for k, o in ours.items():
    n = numba[k]
    print("  %-22s %-24s %-24s %-9s %-10s %-9s %.3f s, %.3f s; %.3f s" % (
        k, f(o), f(n), "%.2fx" % (o["median_ms"] / n["median_ms"]), "%.2f" % o["builtin_ms"],
        "%.1fx" % (o["median_ms"] / o["builtin_ms"]), o["first_s"], n["first_s"],
        o["second_s"]))
PYEOF
done
