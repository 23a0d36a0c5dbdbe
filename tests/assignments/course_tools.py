"""What the assignment suites share: tools/assignments.py run on a course, and the gradebook."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "assignments.py")


def tool(course, *args):
    """assignments.py ARGS --course COURSE, which must succeed; its output."""
    r = subprocess.run([sys.executable, TOOL, *args, "--course", course], capture_output=True,
                       text=True, timeout=1500)
    assert r.returncode == 0, \
        f"assignments.py {args[0]} failed:\n{r.stdout[-3000:]}\n{r.stderr[-5000:]}"
    return r.stdout


def grades(course, student):
    """{(notebook, grade_id): (score, max_score)} from the gradebook."""
    from nbgrader.api import Gradebook

    out = {}
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gb:
        for nb in gb.find_submission("module3", student).notebooks:
            for g in nb.grades:
                out[(nb.name, g.name)] = (g.score, g.max_score)
    return out
