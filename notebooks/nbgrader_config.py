# nbgrader's settings for the course: this directory is the course directory (nbgrader reads
# this file from the directory it runs in). `make assignments` copies the course notebooks that
# are assignments into source/module3/ and releases them into release/module3/; `make autograde
# SUBMISSION=dir` grades into autograded/ and writes feedback/. The gradebook is gradebook.db
# here. tools/assignments.py runs both; see the README's "For instructors".
c = get_config()  # noqa: F821 (nbgrader defines it)

c.CourseDirectory.course_id = "minitorch-module3"

# The notebooks' language is the kernelspec's "minitorch"; nbgrader needs the stub that replaces
# a solution region in that language: the template's own raise, as Python writes it.
c.ClearSolutions.code_stub = {"minitorch": "# YOUR CODE HERE\nraise NotImplementedError()"}

# Grading runs every cell of a notebook with the MiniTorch kernel (the notebook's kernelspec).
# A check of a wrong kernel reports its failure within seconds, but a student's loop may not end:
# a cell gets 10 minutes, then nbgrader interrupts the kernel and the cell scores nothing.
c.Execute.timeout = 600
