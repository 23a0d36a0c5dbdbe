#!/bin/bash
# run.sh KERNEL PYTHON — students' cuda.jit kernels in the kernel's CUDA simulator against the
# same code under Numba's (make bench-cudasim). kernels.py holds MiniTorch's textbook Task
# 3.3/3.4 kernels once; the kernel runs it after ours.mt's header (MT_CUDA_SIMULATE=1, an empty
# cache: the first launch includes the C compiler), Numba after numba_side.py's
# (NUMBA_ENABLE_CUDASIM=1; PYTHON has numpy and numba). The simulator's checks (bounds, races,
# barriers, unwritten reads) and its counts of memory transactions are on. Per row: the first
# launch, then the median (min-max) of 21 launches for the kernel and of 3 for Numba's
# simulator, whose launch of a block starts a Python thread per CUDA thread; three processes a
# side, alternating, and the ratio of the medians of each pair.
set -euo pipefail
kernel=${1:?usage: run.sh KERNEL PYTHON}
py=${2:?usage: run.sh KERNEL PYTHON}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
    "numba $("$py" -c 'import numba; print(numba.__version__)'), $(cc --version | head -1)"
{ printf 'import numba\nfrom numba import cuda\nimport minitorch\n'
  printf 'from minitorch import to_index, index_to_position, broadcast_index\n'
  printf 'MAX_DIMS = 32\nRUNS = 21\n'
  cat "$here/kernels.py" "$here/ours.mt"; } > "$work/ours.mt"
for i in 1 2 3; do
    rm -rf "$work/cache"
    XDG_CACHE_HOME="$work/cache" MT_CUDA_SIMULATE=1 "$kernel" run "$work/ours.mt" > "$work/ours$i.json"
    "$py" "$here/numba_side.py" 3 > "$work/numba$i.json"
done
"$py" - "$work" <<'PYEOF'
import json, sys
w = sys.argv[1]
def load(path):
    rows = {}
    for line in open(path):
        rows.update(json.loads(line))
    return rows
ours = [load(f"{w}/ours{i}.json") for i in (1, 2, 3)]
numba = [load(f"{w}/numba{i}.json") for i in (1, 2, 3)]
print("== ms per launch: the median of each process's launches (21 a process for the kernel, 3 for Numba), three processes a side; first launches: the range")
print("  %-26s %-34s %-34s %-18s %-22s %s" % ("row", "kernel's simulator", "Numba's simulator",
      "Numba / kernel", "first launch: kernel", "Numba"))
for k in ours[0]:
    o = [r[k] for r in ours]
    n = [r[k] for r in numba]
    ratios = sorted(b["median_ms"] / a["median_ms"] for a, b in zip(o, n))
    fmt = lambda rs: " ".join("%.3g" % r["median_ms"] for r in rs)
    firsts = lambda rs: "%.3f-%.3f s" % (min(r["first_s"] for r in rs), max(r["first_s"] for r in rs))
    print("  %-26s %-34s %-34s %-18s %-22s %s" % (k, fmt(o), fmt(n),
          "%.0f-%.0fx" % (ratios[0], ratios[-1]), firsts(o), firsts(n)))
PYEOF
