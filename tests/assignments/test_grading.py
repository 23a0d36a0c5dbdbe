"""Grading survives its students: a crash, a hang or a notebook nbgrader cannot read costs that
student that cell, or that student, never the rest of the notebook or of the class.

A small assignment (one notebook: three functions to write, four test cells of a point each) is
released into a temporary course whose nbgrader_config.py is the course's with a 5 s time limit,
and `tools/assignments.py autograde` grades a class at once, as `make autograde` does:
- correct: the solutions, full marks;
- crash: triple() kills the kernel when called (SIGSEGV), and square's cell does at the top
  level, before defining square;
- loop: triple() loops forever (`while True: pass`), square() loops and goes on looping after
  each KeyboardInterrupt it catches;
- hang: triple() never returns and never answers the interrupt (the test hook), so that only
  killing the kernel stops it;
- broken: a notebook that is not JSON, which nbgrader cannot grade.
Each of the first four is graded, with a zero on the affected test cells only: the tests after a
crash or a kill run in a new kernel into which the cells before were run again (test_square and
test_state need the given cell's x and double()). The feedback says why a cell scored nothing;
broken is reported as not graded, and the exit status is 1.

The crash and the hang are the kernel's test hooks, _mt_test_crash() and _mt_test_hang(), which
exist only with MT_TEST_HOOKS=1 in the kernel's environment (set here for the kernels nbgrader
starts): student code's own ways to crash the kernel are bugs, fixed as they are found.
"""

import json
import os
import subprocess
import sys

import nbformat
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")
TOOL = os.path.join(TOOLS, "assignments.py")
sys.path.insert(0, TOOLS)
from mt_grading import GradingExecute  # noqa: E402
from notebooks import KERNELSPEC, nbgrader_metadata  # noqa: E402  (tools/notebooks.py)

TIMEOUT = 5  # s: a cell's time limit in the course; the test's cells take milliseconds
GRACE = 2  # s: GradingExecute.interrupt_grace
NOTEBOOK = "small"
TESTS = ["test_double", "test_triple", "test_square", "test_state"]

SOLUTIONS = {
    "double": "def double(v):\n    ### BEGIN SOLUTION\n    return 2 * v\n    ### END SOLUTION",
    "triple": "def triple(v):\n    ### BEGIN SOLUTION\n    return 3 * v\n    ### END SOLUTION",
    "square": "def square(v):\n    ### BEGIN SOLUTION\n    return v * v\n    ### END SOLUTION",
}
LOOP_CATCHING = """def square(v):
    n = 0
    while True:
        try:
            while True:
                n += 1
        except KeyboardInterrupt:
            print("caught an interrupt; going on")"""
STUDENTS = {  # what each student wrote in place of the solutions
    "correct": {},
    "crash": {"triple": "def triple(v):\n    _mt_test_crash()",
              "square": "_mt_test_crash()\ndef square(v):\n    return v * v"},
    "loop": {"triple": "def triple(v):\n    while True:\n        pass",
             "square": LOOP_CATCHING},
    "hang": {"triple": "def triple(v):\n    _mt_test_hang()"},
}
WANT = {  # each student's score on each test cell, of 1
    "correct": [1, 1, 1, 1],
    "crash": [1, 0, 0, 1],
    "loop": [1, 0, 0, 1],
    "hang": [1, 0, 1, 1],
}
DIED = "the kernel died while running this cell (signal 11, SIGSEGV)"
RERUN = "The cells after it ran in a new kernel, after the cells before it that had finished"
INTERRUPTED = f"this cell ran past {TIMEOUT} s and was interrupted"
KILLED = (f"this cell ran past {TIMEOUT} s and did not stop when interrupted, so the kernel was "
          "killed")


def source_notebook(solutions):
    """The assignment's notebook with the given code in each solution cell."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)

    def code(text, meta):
        cell = nbformat.v4.new_code_cell(text)
        cell.metadata["nbgrader"] = meta
        nb.cells.append(cell)

    nb.cells.append(nbformat.v4.new_markdown_cell("# Three functions"))
    code("x = 2", nbgrader_metadata("given"))
    for name, test in [("double", "assert double(3) == 6"), ("triple", "assert triple(x) == 6"),
                       ("square", "assert square(x) == 4")]:
        code(solutions[name], nbgrader_metadata(name, solution=True))
        code(test, nbgrader_metadata(f"test_{name}", points=1))
    code("assert double(x) == 4", nbgrader_metadata("test_state", points=1))
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"small-{i:02d}"
    return nb


def grades(course, student):
    """[score of each test cell] from the gradebook, in TESTS' order."""
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gb:
        nb = gb.find_submission_notebook(NOTEBOOK, "module3", student)
        got = {g.name: g.score for g in nb.grades}
    return [got[t] for t in TESTS]


def autograded_cell(course, student, grade_id):
    with open(os.path.join(course, "autograded", student, "module3", NOTEBOOK + ".ipynb"),
              encoding="utf-8") as f:
        nb = json.load(f)
    return next(c for c in nb["cells"]
                if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)


def error_text(cell):
    return "\n".join(o["evalue"] for o in cell["outputs"] if o["output_type"] == "error")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class graded at once: (course directory, the tool's CompletedProcess)."""
    course = tmp_path_factory.mktemp("course")
    with open(os.path.join(ROOT, "course", "nbgrader_config.py"), encoding="utf-8") as f:
        config = f.read()
    (course / "nbgrader_config.py").write_text(
        config + f"\nc.Execute.timeout = {TIMEOUT}\nc.GradingExecute.interrupt_grace = {GRACE}\n",
        encoding="utf-8")
    source = tmp_path_factory.mktemp("source") / (NOTEBOOK + ".ipynb")
    nbformat.write(source_notebook(SOLUTIONS), str(source))
    r = subprocess.run([sys.executable, TOOL, "release", str(source), "--course", str(course)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"release failed:\n{r.stdout[-3000:]}\n{r.stderr[-5000:]}"

    submitted = tmp_path_factory.mktemp("submitted")
    for student, code in STUDENTS.items():
        d = submitted / student
        d.mkdir()
        nbformat.write(source_notebook({**SOLUTIONS, **code}), str(d / (NOTEBOOK + ".ipynb")))
    (submitted / "broken").mkdir()
    (submitted / "broken" / (NOTEBOOK + ".ipynb")).write_text("{not a notebook", encoding="utf-8")
    r = subprocess.run([sys.executable, TOOL, "autograde", str(submitted), "--course",
                        str(course)], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, MT_TEST_HOOKS="1"))
    return str(course), r


@pytest.mark.parametrize("student", sorted(STUDENTS))
def test_each_student_loses_only_the_cells_that_failed(graded, student):
    course, r = graded
    assert grades(course, student) == WANT[student], summary(r)


def summary(r):
    """The summary the tool prints at the end, or the end of its output if it printed none."""
    start = r.stdout.find("\nsummary:")
    return r.stdout[start:] if start >= 0 else (r.stdout + r.stderr)[-5000:]


def test_the_class_summary_says_who_was_not_graded(graded):
    _, r = graded
    text = summary(r)
    assert r.returncode == 1, text
    assert "summary: 5 students, 1 not graded or without feedback: broken" in text, text
    lines = {ln.split()[0]: ln for ln in text.split("\n")[2:] if ln.startswith("  ")}
    assert "NOT GRADED: nbgrader autograde failed" in lines["broken"]
    assert lines["correct"].endswith("  4 of 4 points")
    assert lines["crash"].endswith("2 of 4 points; the kernel died in 1 graded cell")
    assert lines["loop"].endswith("2 of 4 points; time limit in 2 graded cells")
    assert lines["hang"].endswith("3 of 4 points; time limit in 1 graded cell")


def test_the_output_is_the_scores_and_what_went_wrong(graded):
    """nbgrader's log of what went well (each file it converts, at INFO) and SQLAlchemy's
    warnings about nbgrader's sessions are left out; the log of the run that failed is not."""
    _, r = graded
    out = r.stdout + r.stderr
    assert "| INFO]" not in out and "SAWarning" not in out, out[:3000]
    before = out[:out.find("\nsummary:")]
    assert "| ERROR]" in before and "submitted/broken" in before, out[:3000]
    assert "Notebook does not appear to be JSON" in before, out[:3000]


def test_the_feedback_says_why(graded):
    course = graded[0]

    def feedback(student):
        path = os.path.join(course, "feedback", student, "module3", NOTEBOOK + ".html")
        with open(path, encoding="utf-8") as f:
            return f.read()

    assert DIED in feedback("crash") and RERUN in feedback("crash")
    assert INTERRUPTED in feedback("loop")
    assert KILLED in feedback("hang") and RERUN in feedback("hang")
    assert "DeadKernelError" not in feedback("correct")
    assert "CellTimeoutError" not in feedback("correct")


def test_each_message_is_in_the_cell_that_failed(graded):
    course = graded[0]
    assert DIED in error_text(autograded_cell(course, "crash", "test_triple"))
    assert DIED in error_text(autograded_cell(course, "crash", "square"))  # a solution cell
    assert "NameError" in json.dumps(autograded_cell(course, "crash", "test_square")["outputs"])
    assert INTERRUPTED in error_text(autograded_cell(course, "loop", "test_triple"))
    square = autograded_cell(course, "loop", "test_square")
    assert INTERRUPTED in error_text(square)
    assert "caught an interrupt" in json.dumps(square["outputs"])
    assert KILLED in error_text(autograded_cell(course, "hang", "test_triple"))
    for student in STUDENTS:
        for grade_id in ["given", "test_double", "test_state"]:
            assert not autograded_cell(course, student, grade_id)["outputs"], (student, grade_id)


def run_script(code, tmp_path, **env):
    script = tmp_path / "hook.mt"
    script.write_text(code, encoding="utf-8")
    kernel = os.environ.get("MT_KERNEL_BIN", os.path.join(ROOT, "build", "minitorch-kernel"))
    environ = {k: v for k, v in os.environ.items() if k != "MT_TEST_HOOKS"}
    return subprocess.run([kernel, "run", str(script)], capture_output=True, text=True,
                          timeout=60, env={**environ, **env})


def test_the_crash_hook_exists_only_with_MT_TEST_HOOKS(tmp_path):
    for env in [{}, {"MT_TEST_HOOKS": "0"}, {"MT_TEST_HOOKS": "yes"}]:
        r = run_script("print(1)\n_mt_test_crash()\n", tmp_path, **env)
        assert r.returncode == 1, (env, r.returncode, r.stderr)
        assert "NameError: name '_mt_test_crash' is not defined" in r.stderr + r.stdout
        r = run_script("_mt_test_hang()\n", tmp_path, **env)
        assert "NameError: name '_mt_test_hang' is not defined" in r.stderr + r.stdout
    r = run_script("print(1)\n_mt_test_crash()\n", tmp_path, MT_TEST_HOOKS="1")
    assert r.returncode == -11 and r.stdout == "1\n", (r.returncode, r.stdout, r.stderr)


class CrashesWhenRunAgain(GradingExecute):
    """Cells marked `# crashes when run again` kill the kernel when they are run again after a
    death, as a cell whose effect depends on the world might."""

    async def _run_again(self, index):
        cell = self.nb.cells[index]
        if "# crashes when run again" not in cell.source:
            return await super()._run_again(index)
        saved, cell.source = cell.source, "_mt_test_crash()"
        try:
            return await super()._run_again(index)
        finally:
            cell.source = saved


def test_a_cell_that_dies_when_run_again_is_left_out_and_deaths_are_counted(tmp_path,
                                                                             monkeypatch):
    monkeypatch.setenv("MT_TEST_HOOKS", "1")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    for code in ["x = 2", "y = 3  # crashes when run again", "_mt_test_crash()", "print(x)",
                 "print(y)", "_mt_test_crash()", "print(x)"]:
        nb.cells.append(nbformat.v4.new_code_cell(code))
    client = CrashesWhenRunAgain(timeout=TIMEOUT, max_kernel_restarts=2)
    client.preprocess(nb, {"metadata": {"path": str(tmp_path)}})
    out = [json.dumps(c.outputs) for c in nb.cells]
    assert "killed the kernel again when run again" in out[2] and "cell 2" in out[2], out[2]
    assert '"2\\n"' in out[3]  # x was run again, y was not
    assert "NameError" in out[4]
    assert "died 3 times in this notebook, so the cells after it were not run" in out[5], out[5]
    assert "not run: the kernel died 3 times" in out[6] and '"2\\n"' not in out[6], out[6]
