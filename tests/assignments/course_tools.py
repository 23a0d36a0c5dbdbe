"""What the assignment suites share: tools/assignments.py run on a course, and the gradebook."""

import importlib.util
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "assignments.py")

# the tool's own rule for which assignment a notebook is in (module0 for m0_*, module3 for 02-06)
_spec = importlib.util.spec_from_file_location("mt_assignments_tool", TOOL)
_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tool)
assignment_of = _tool.assignment_of


def tool(course, *args):
    """assignments.py ARGS --course COURSE, which must succeed; its output."""
    r = subprocess.run([sys.executable, TOOL, *args, "--course", course], capture_output=True,
                       text=True, timeout=1500)
    assert r.returncode == 0, \
        f"assignments.py {args[0]} failed:\n{r.stdout[-3000:]}\n{r.stderr[-5000:]}"
    return r.stdout


def grades(course, student, assignment="module3"):
    """{(notebook, grade_id): (score, max_score)} of a student's assignment, from the
    gradebook."""
    from nbgrader.api import Gradebook

    out = {}
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gb:
        for nb in gb.find_submission(assignment, student).notebooks:
            for g in nb.grades:
                out[(nb.name, g.name)] = (g.score, g.max_score)
    return out
