"""Instructions (valgrind's callgrind, Ir) the kernel and CPython run for the same Python: the
training loops of Tasks 1.5 and 2.5 (bench/course/run.py's sides, a few epochs), and each
operation of ops.py. Unlike seconds on a shared machine, the counts do not depend on the load,
so they show a change of the interpreter's cost that timings would drown; the counts of the
training loops subtract a run with 0 epochs (start-up, the files' cells), those of the operations
a run with 0 iterations.

    python bench/course/instructions.py --kernel build/minitorch-kernel [--python PY]
        [--epochs 4] [--n 20000] [--only train|ops]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (bench/course/run.py: the two sides of each task)


def instructions(cmd, cwd):
    """Ir of one run of cmd under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")  # CPython's hashing the same every run
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                       cwd=cwd, env=env, capture_output=True, text=True, timeout=3600)
    m = re.search(r"Collected : (\d+)", p.stderr)
    if p.returncode != 0 or not m:
        sys.exit("%s failed:\n%s%s" % (" ".join(cmd), p.stdout[-2000:], p.stderr[-2000:]))
    return int(m.group(1))


def train(kernel, python, epochs):
    print("== the training loop, %d epochs (M instructions, start-up subtracted)" % epochs)
    print("  %-13s %10s %10s %8s" % ("task", "kernel", "CPython", "ratio"))
    for name, script, files, _ in run.TASKS:
        counts = {}
        for n in (0, epochs):
            with tempfile.TemporaryDirectory() as work:
                run.make_sides(work, script, files, n)
                counts[n] = (instructions([kernel, "run", "kernel.mt"], work),
                             instructions([python, "train.py"], work))
        k = (counts[epochs][0] - counts[0][0]) / 1e6
        c = (counts[epochs][1] - counts[0][1]) / 1e6
        print("  %-13s %10.1f %10.1f %7.2fx" % (name, k, c, k / c))


def ops(kernel, python, n):
    with open(os.path.join(HERE, "ops.py"), encoding="utf-8") as f:
        source = f.read()
    cases = re.findall(r"^def (\w+)\(\):", source, re.M)
    print("== one operation, %d iterations (instructions per iteration, the empty loop included)"
          % n)
    print("  %-20s %8s %8s %8s" % ("operation", "kernel", "CPython", "ratio"))
    with tempfile.TemporaryDirectory() as work:
        for case in cases:
            per = []
            for side in (kernel, python):
                got = []
                for iterations in (0, n):
                    path = os.path.join(work, "case.py")
                    with open(path, "w", encoding="utf-8") as f:
                        f.write("N = %d\n%s\n%s()\n" % (iterations, source, case))
                    cmd = [side, "run", path] if side == kernel else [side, path]
                    got.append(instructions(cmd, work))
                per.append((got[1] - got[0]) / n)
            print("  %-20s %8.0f %8.0f %7.2fx" % (case, per[0], per[1], per[0] / per[1]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--only", choices=["train", "ops"])
    a = ap.parse_args()
    kernel, python = os.path.abspath(a.kernel), run.program(a.python)
    if a.only != "ops":
        train(kernel, python, a.epochs)
    if a.only != "train":
        ops(kernel, python, a.n)


if __name__ == "__main__":
    main()
