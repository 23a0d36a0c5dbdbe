"""The course notebooks' task cells, as a student first gets them.

A cell where the student writes a task's code holds the solution between `### BEGIN SOLUTION`
and `### END SOLUTION` (nbgrader's markers). Given to a student, that region is the template's
`raise NotImplementedError(...)`. For each notebook with such cells, the cells of its task
section (from the cell that imports numba to the one that calls check()) are run by the kernel
twice: with the solutions, check() passes every test; with the template in their place, check()
fails every test that needs the student's code, saying the template's message, and the cell
ends in an AssertionError naming the task.
"""

import os
import re
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import notebooks  # noqa: E402  (tools/notebooks.py: the sources' cells)

SOLUTION = re.compile(r"^( *)### BEGIN SOLUTION\n.*?^ *### END SOLUTION\n", re.M | re.S)

# notebook -> (task, tests run, tests that need the student's code)
TASKS = {"02_parallel": ("3.1", 51, 50), "03_matmul": ("3.2", 2, 2), "04_cuda_ops": ("3.3", 57, 56),
         "05_cuda_matmul": ("3.4", 5, 5)}


def task_cells(name):
    cells = [src for kind, src in notebooks.parse(os.path.join(notebooks.SRC, name + ".mt"))
             if kind == "code"]
    start = next(i for i, c in enumerate(cells) if "from numba import" in c)
    end = next(i for i, c in enumerate(cells) if i > start and "check(" in c)
    return cells[start:end + 1]


def as_template(cell, task):
    return SOLUTION.sub(
        lambda m: f'{m.group(1)}raise NotImplementedError("Need to implement for Task {task}")\n',
        cell)


def run(cells):
    kernel = os.environ.get("MT_KERNEL_BIN", os.path.join(ROOT, "build", "minitorch-kernel"))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "task.mt")
        with open(path, "w") as f:
            f.write("\n\n".join(cells) + "\n")
        return subprocess.run([kernel, "run", path], capture_output=True, text=True,
                              timeout=600, env=dict(os.environ, XDG_CACHE_HOME=tmp))


@pytest.mark.parametrize("name", sorted(TASKS))
def test_solution_passes(name):
    task, total, _ = TASKS[name]
    cells = task_cells(name)
    assert any(SOLUTION.search(c) for c in cells), f"{name} has no solution region"
    out = run(cells)
    assert out.returncode == 0, out.stderr[-2000:]
    assert f"{total} passed, 0 failed" in out.stdout, out.stdout[-2000:]


@pytest.mark.parametrize("name", sorted(TASKS))
def test_template_fails_check_clearly(name):
    task, total, needs = TASKS[name]
    out = run([as_template(c, task) for c in task_cells(name)])
    assert out.returncode == 1
    assert f"{total - needs} passed, {needs} failed" in out.stdout, out.stdout[-3000:]
    assert f"raised NotImplementedError: Need to implement for Task {task}" in out.stdout
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith(f"AssertionError: {needs} of {total} tests of Task {task} failed "
                           "(the first: "), last
