"""Kernels sharing a machine, as a class on one server does: notebook 06's Task 3.5 cells (the
student's njit kernels compiled, the network trained on them and on the built-in fast backend)
run by N kernels at once, under each OpenMP wait setting, and by one kernel alone.

    python bench/openmp_shared.py --kernel build/minitorch-kernel [--n 6] [--alone 3]

libgomp's idle threads spin before they sleep: 300,000 spins by default, libgomp's choice for a
process that has the machine to itself. Kernels of several students each start a thread per CPU,
and a parallel region then waits for threads that other kernels' spinning keeps off the CPUs.
The kernelspec sets GOMP_SPINCOUNT=1000 (kernelspec/kernel.json); this measures why. The
compiled kernels are cached once before the timings (one cache folder for all runs here), so the
runs time the training, not the compiler.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOTEBOOK = os.path.join(ROOT, "notebooks", "06_training.ipynb")
sys.path.insert(0, os.path.join(ROOT, "tools"))
from course_cells import task35_cells  # noqa: E402
SETTINGS = [("libgomp's default", {}), ("GOMP_SPINCOUNT=1000", {"GOMP_SPINCOUNT": "1000"}),
            ("OMP_WAIT_POLICY=passive", {"OMP_WAIT_POLICY": "passive"})]


def task_script(path):
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join("# %%\n" + "".join(c["source"]) + "\n" for c in task35_cells(NOTEBOOK)))


def epoch_ms(out):
    """the cell's own figure: 'time per epoch (median): X ms on your backend, Y ms on ...'"""
    for line in out.splitlines():
        if line.startswith("time per epoch (median):"):
            words = line.split()
            return float(words[4]), float(words[9])
    raise SystemExit("no time per epoch in the output:\n" + out[-2000:])


def run_many(kernel, script, work, env, n):
    t0 = time.perf_counter()
    procs = [subprocess.Popen([kernel, "run", script], cwd=work, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for _ in range(n)]
    outs = [p.communicate()[0] for p in procs]
    wall = time.perf_counter() - t0
    for p, out in zip(procs, outs):
        if p.returncode != 0:
            raise SystemExit("a kernel failed:\n" + out[-3000:])
    return wall, [epoch_ms(o) for o in outs]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--alone", type=int, default=3)
    a = ap.parse_args()
    kernel = os.path.abspath(a.kernel)
    with tempfile.TemporaryDirectory() as work:
        script = os.path.join(work, "task35.mt")
        task_script(script)
        base = {k: v for k, v in os.environ.items()
                if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY", "OMP_NUM_THREADS")}
        base["XDG_CACHE_HOME"] = os.path.join(work, "cache")
        run_many(kernel, script, work, base, 1)  # the compiled kernels into the cache
        print("== notebook 06's Task 3.5 cells, %d CPUs; the kernel %s" % (os.cpu_count(), a.kernel))
        print("  %-24s %-28s %-34s" % ("OpenMP setting", "alone: ms/epoch yours, fast",
                                        "%d at once: wall s, ms/epoch yours" % a.n))
        for name, extra in SETTINGS:
            env = dict(base, **extra)
            alone = [run_many(kernel, script, work, env, 1)[1][0] for _ in range(a.alone)]
            wall, many = run_many(kernel, script, work, env, a.n)
            print("  %-24s %-28s %-34s" % (
                name, "%.2f, %.2f" % (statistics.median(x for x, _ in alone),
                                      statistics.median(y for _, y in alone)),
                "%.1f s, %.1f (%.1f-%.1f)" % (wall, statistics.median(x for x, _ in many),
                                              min(x for x, _ in many), max(x for x, _ in many))))
    print("(alone: the median of %d runs; the training runs 500 epochs on your backend, 50 on the "
          "built-in fast one)" % a.alone)


if __name__ == "__main__":
    sys.exit(main())
