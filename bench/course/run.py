"""Tasks 1.5 and 2.5 on a student's own files, in the kernel and under CPython (make bench-course).

A student's Module 1 and 2 files run as `%%minitorch_file` cells in the kernel and as the package
`minitorch` under CPython, then the same training script: train_scalar.py (Task 1.5: a network
of Scalars) and train_tensor.py (Task 2.5: the same network on the student's tensors, whose
tensor_ops.py loops run every op). The files are the project's own correct ones: operators.py,
module.py and the Module 2 files of tests/kernel/lib/course/, Module 1's from kernel/lib/minitorch/
(the kernel's reference, run as a student's), optim.py from here. Each side prints its losses
(which must agree to the last digit) and the seconds its training loop took; runs alternate
between the sides, and the table gives each side's median (min-max) and the kernel's time over
CPython's.

    python bench/course/run.py --kernel build/minitorch-kernel [--python PY] [--runs 3]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COURSE = os.path.join(ROOT, "tests", "kernel", "lib", "course")
KERNEL_FILES = os.path.join(ROOT, "kernel", "lib", "minitorch")

MODULE1 = [("operators", COURSE), ("module", COURSE), ("autodiff", KERNEL_FILES),
           ("scalar_functions", KERNEL_FILES), ("scalar", KERNEL_FILES), ("optim", HERE)]
MODULE2 = MODULE1 + [("tensor_data", COURSE), ("tensor_ops", COURSE),
                     ("tensor_functions", COURSE), ("tensor", COURSE)]
TASKS = [("1.5 scalars", "train_scalar.py", MODULE1, 40),
         ("2.5 tensors", "train_tensor.py", MODULE2, 40)]

# CPython's package: the kernel's autodiff.py imports central_difference from minitorch (the
# kernel's C function), so the package defines it before importing the files
INIT = '''def central_difference(f, *vals, arg=0, epsilon=1e-6):
    up = list(vals)
    down = list(vals)
    up[arg] += epsilon
    down[arg] -= epsilon
    return (f(*up) - f(*down)) / (2 * epsilon)


from . import operators
%s
'''


def read(name, folder):
    with open(os.path.join(folder, name + ".py"), encoding="utf-8") as f:
        return f.read()


def make_sides(work, script, files, epochs):
    """the kernel's percent-format file and CPython's package plus script, in work"""
    with open(os.path.join(HERE, script), encoding="utf-8") as f:
        body = "EPOCHS = %d\n%s" % (epochs, f.read())
    cells = ["# %%%%\n%%%%minitorch_file %s.py\n%s" % (n, read(n, d)) for n, d in files]
    with open(os.path.join(work, "kernel.mt"), "w", encoding="utf-8") as f:
        f.write("\n".join(cells) + "\n# %%\n" + body)
    pkg = os.path.join(work, "minitorch")
    os.makedirs(pkg, exist_ok=True)
    imports = ["from . import %s" % n for n, _ in files if n != "operators"]
    if any(n == "tensor" for n, _ in files):
        imports.append("from .tensor import Tensor, History")
    with open(os.path.join(pkg, "__init__.py"), "w", encoding="utf-8") as f:
        f.write(INIT % "\n".join(imports))
    for n, d in files:
        with open(os.path.join(pkg, n + ".py"), "w", encoding="utf-8") as f:
            f.write(read(n, d))
    with open(os.path.join(work, "train.py"), "w", encoding="utf-8") as f:
        f.write(body)


def program(path):
    """path as the sides run it, in a directory of their own: a relative path (.venv/bin/python)
    taken from here; a bare name (python3) left to PATH"""
    return os.path.abspath(path) if os.sep in path else path


def run(cmd, work):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, timeout=1800)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit("%s failed:\n%s%s" % (" ".join(cmd), p.stdout, p.stderr[-3000:]))
    lines = p.stdout.strip().splitlines()
    seconds = float(lines[-1].split()[1])
    return lines[:-1], seconds, wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    kernel = os.path.abspath(a.kernel)
    python = program(a.python)
    ver = subprocess.run([python, "--version"], capture_output=True, text=True).stdout.strip()
    print("== %d CPUs; the kernel %s against %s; %d runs a side, alternating"
          % (os.cpu_count(), a.kernel, ver, a.runs))
    print("  %-13s %6s  %-22s %-22s %-9s %s" % ("task", "epochs", "kernel s (min-max)",
                                                 "CPython s (min-max)", "ratio", "losses"))
    for name, script, files, epochs in TASKS:
        with tempfile.TemporaryDirectory() as work:
            make_sides(work, script, files, epochs)
            ours, theirs, out = [], [], {}
            for _ in range(a.runs):
                lines, s, _ = run([kernel, "run", "kernel.mt"], work)
                out["kernel"] = lines
                ours.append(s)
                lines, s, _ = run([python, "train.py"], work)
                out["cpython"] = lines
                theirs.append(s)
            same = "identical" if out["kernel"] == out["cpython"] else "DIFFER"
            m, c = statistics.median(ours), statistics.median(theirs)
            print("  %-13s %6d  %-22s %-22s %-9s %s" % (
                name, epochs, "%.3f (%.3f-%.3f)" % (m, min(ours), max(ours)),
                "%.3f (%.3f-%.3f)" % (c, min(theirs), max(theirs)),
                "%.2fx" % (m / c), same))
            if same != "identical":
                print("    kernel:  %s\n    CPython: %s"
                      % (out["kernel"][-1:], out["cpython"][-1:]))
    print("(ratio: the kernel's median over CPython's; below 1 the kernel is faster)")


if __name__ == "__main__":
    main()
