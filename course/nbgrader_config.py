# nbgrader's settings for the course: this directory, course/, is the course directory
# (nbgrader reads this file from the directory it runs in), the instructor's, apart from the
# notebooks students open. Each module is an assignment: `make assignments` copies the course
# notebooks that are assignments (notebooks/) into source/module0/ ... source/module4/ and
# releases them into release/module0/ ...; `make autograde SUBMISSION=dir` grades into
# autograded/ and writes feedback/. The gradebook is gradebook.db here. Git tracks this file
# only. tools/assignments.py runs both; see the README's "For instructors".
import os
import sys

from nbgrader.converters import Autograde
from nbgrader.preprocessors import Execute

c = get_config()  # noqa: F821 (nbgrader defines it)

c.CourseDirectory.course_id = "minitorch"

# The notebooks' language is the kernelspec's "minitorch"; nbgrader needs the stub that replaces
# a solution region in that language: the template's own raise, as Python writes it.
c.ClearSolutions.code_stub = {"minitorch": "# YOUR CODE HERE\nraise NotImplementedError()"}

# Grading runs every cell of a notebook with the MiniTorch kernel (the notebook's kernelspec),
# through tools/mt_grading.py's GradingExecute instead of nbgrader's Execute: a cell that crashes
# the kernel or does not stop costs the student that cell, not the notebook (its docstring says
# how). tools/assignments.py puts tools/ on the path of the nbgrader it runs; nbgrader run by
# hand in course/ finds it in ../tools.
_tools = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools")
if os.path.isfile(os.path.join(_tools, "mt_grading.py")) and _tools not in sys.path:
    sys.path.insert(0, _tools)
c.Autograde.autograde_preprocessors = [
    "mt_grading.GradingExecute" if p is Execute else p
    for p in Autograde.autograde_preprocessors.default()]

# A cell's time limit, in seconds. A check of a wrong kernel reports its failure within seconds
# and the longest cells of the course (06's trainings) take seconds, but a student's loop may not
# end: at the limit the kernel is interrupted, and the cell scores nothing; a kernel that does not
# stop within GradingExecute.interrupt_grace seconds more is killed. Grading a student whose
# function loops forever takes this long for every cell that calls it.
c.Execute.timeout = 120
