"""The course notebooks as nbgrader assignments: release them to students, grade what they hand in.

    python tools/assignments.py release [--course DIR] [--assignment NAME] [NOTEBOOK ...]
        (make assignments) the stored notebooks that are assignments (those with nbgrader
        metadata), or the NOTEBOOKs given, go to DIR/source/ASSIGNMENT/, and nbgrader's
        generate_assignment writes the student versions to DIR/release/ASSIGNMENT/: solutions
        replaced by the language's stub, outputs cleared, given cells locked. Each module is an
        assignment of its own, named by the notebook (assignment_of): moduleN for mN_*.ipynb
        (module0 to module2, module4), module3 for notebooks 02 to 06 (and any other name);
        --assignment puts every NOTEBOOK given in that one.
    python tools/assignments.py autograde SUBMISSION [--course DIR] [--student ID]
                                         [--assignment NAME] [--together]
        (make autograde) grades a submission with nbgrader's autograde and writes the feedback
        with generate_feedback, then prints each graded cell's score. SUBMISSION is a directory
        holding one student's notebooks (the student's id is the directory's name, or ID), or a
        directory of such directories, one per student (nbgrader's submitted/ layout, with or
        without the assignment's level, module0/ ... module3/). Notebooks are graded in the
        assignment their names belong to (or NAME's). Each student's assignment is graded on
        its own: one whose grading fails is reported in the summary at the end, and the others
        are graded. The exit status is 1 when a student could not be graded or got no feedback.
        --together grades each assignment's submitted students in one nbgrader run instead
        (nbgrader starts twice an assignment rather than twice a student: the tests' classes of
        dozens); an assignment whose run fails is then graded a student at a time.

DIR is the course directory, course/ by default: nbgrader reads course/nbgrader_config.py
there (the kernel's language and its code stub) and keeps its gradebook (gradebook.db),
submitted/, autograded/ and feedback/ in it. Grading runs the notebooks with the MiniTorch
kernel, which must be installed as a kernelspec Jupyter finds (`make install-kernelspec`), cell
by cell under a time limit, through tools/mt_grading.py (which the course's nbgrader_config.py
names): a cell that crashes the kernel or does not stop scores nothing and says why, and the
notebook goes on.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TOOLS)
NOTEBOOKS = os.path.join(ROOT, "notebooks")
COURSE = os.path.join(ROOT, "course")  # the instructor's, beside the notebooks, not in them
CONFIG = "nbgrader_config.py"

# nbgrader's gradebook runs the `alembic` command by name: it must find the one installed beside
# this interpreter (the venv's bin/, which need not be on PATH).
os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")


def assignment_of(notebook):
    """The assignment a notebook (a path or a name) belongs to: moduleN for mN_*.ipynb, the
    Module 3 course's module3 for the others (02_parallel.ipynb ...)."""
    m = re.match(r"m(\d+)_", os.path.basename(notebook))
    return f"module{m.group(1)}" if m else "module3"


def by_assignment(notebooks, assignment=None):
    """{assignment: [notebook, ...]}, in the notebooks' order."""
    out = {}
    for path in notebooks:
        out.setdefault(assignment or assignment_of(path), []).append(path)
    return out


def assignment_notebooks():
    """The stored course notebooks that are nbgrader assignment sources."""
    found = []
    for path in sorted(glob.glob(os.path.join(NOTEBOOKS, "*.ipynb"))):
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
        if any("nbgrader" in c.get("metadata", {}) for c in nb["cells"]):
            found.append(path)
    return found


def nbgrader(course, *args):
    """Runs an nbgrader command in the course directory; returns None, or what failed. Of its
    log, only its warnings and errors are printed (nbgrader's own lines of those levels and
    what follows them; the whole log where the command failed without one), so that a grading
    run shows its score table, not each file nbgrader converts nor SQLAlchemy's notes on
    nbgrader's sessions. The course's nbgrader_config.py imports tools/mt_grading.py; an error
    in that file stops nbgrader (it would otherwise run without any of the course's
    settings)."""
    cmd = [sys.executable, "-m", "nbgrader", *args]
    path = os.pathsep.join(p for p in (TOOLS, os.environ.get("PYTHONPATH")) if p)
    env = dict(os.environ, PYTHONPATH=path, TRAITLETS_APPLICATION_RAISE_CONFIG_FILE_ERROR="1")
    r = subprocess.run(cmd, cwd=course, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace")
    if r.returncode != 0:
        print(serious(r.stdout) or r.stdout, end="")
        return f"nbgrader {args[0]} failed (exit {r.returncode}; its log is above)"
    print(serious(r.stdout), end="")
    return None


def serious(log):
    """The warnings and errors of an nbgrader log: each line nbgrader logs at WARNING or above
    (but its notes that --force replaced an earlier run's files), with the lines that continue
    it (a traceback), up to its next line of another level."""
    keep, out = False, []
    for line in log.splitlines(keepends=True):
        level = re.match(r"\[\w+ \| (\w+)\]", line)
        if level:
            keep = level.group(1) in ("WARNING", "ERROR", "CRITICAL") and \
                "Removing existing" not in line
        elif not line.startswith((" ", "\t", "Traceback")) and "Warning:" in line:
            keep = False  # a Python warning (SQLAlchemy's): not nbgrader's to report
        if keep:
            out.append(line)
    return "".join(out)


def course_dir(path):
    course = os.path.abspath(path)
    os.makedirs(course, exist_ok=True)
    if not os.path.exists(os.path.join(course, CONFIG)):
        shutil.copy(os.path.join(COURSE, CONFIG), course)
    return course


def release(course, notebooks, assignment=None):
    groups = by_assignment(notebooks or assignment_notebooks(), assignment)
    if not groups:
        raise SystemExit("no notebook in notebooks/ has nbgrader metadata (tools/notebooks.py "
                         "build writes it)")
    for name, paths in sorted(groups.items()):
        source = os.path.join(course, "source", name)
        shutil.rmtree(source, ignore_errors=True)
        os.makedirs(source)
        for path in paths:
            shutil.copy(path, source)
        failed = nbgrader(course, "generate_assignment", name, "--force")
        if failed:
            raise SystemExit(failed)
        out = os.path.join(course, "release", name)
        print(f"released {len(paths)} notebooks to {out}: "
              f"{', '.join(os.path.basename(p) for p in paths)}")


def notebooks_in(directory):
    return sorted(glob.glob(os.path.join(directory, "*.ipynb")))


def submissions(path, student, assignment=None):
    """[(student id, assignment, [that student's notebooks of it])] in a submission directory:
    a student's notebooks, or a directory per student holding them or, as nbgrader's
    submitted/ does, a directory per assignment (module0/ ... module3/) holding them."""
    path = os.path.abspath(path)
    if not os.path.isdir(path):
        raise SystemExit(f"{path}: not a directory")
    if notebooks_in(path):
        sid = student or os.path.basename(path)
        return [(sid, a, nbs) for a, nbs in by_assignment(notebooks_in(path), assignment).items()]
    if student:
        raise SystemExit(f"--student: {path} holds no notebook of its own")
    found = []
    for d in sorted(os.listdir(path)):
        sub = os.path.join(path, d)
        if not os.path.isdir(sub):
            continue
        levels = [os.path.join(sub, a) for a in sorted(os.listdir(sub))
                  if re.fullmatch(r"module\d+", a) and os.path.isdir(os.path.join(sub, a))]
        for level in levels or [sub]:
            own = os.path.basename(level) if levels else None
            for a, nbs in by_assignment(notebooks_in(level), assignment or own).items():
                found.append((d, a, nbs))
    if not found:
        raise SystemExit(f"{path}: no notebooks, and no directories of a student's notebooks")
    return found


def scores(course, student, assignment):
    """Each graded cell's score, in the notebooks' order: [(notebook, cell, score, max score)]."""
    from nbgrader.api import Gradebook

    rows = []
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gb:
        submission = gb.find_submission(assignment, student)
        for nb in sorted(submission.notebooks, key=lambda n: n.name):
            with open(os.path.join(course, "release", assignment, nb.name + ".ipynb"),
                      encoding="utf-8") as f:
                order = [c["metadata"].get("nbgrader", {}).get("grade_id")
                         for c in json.load(f)["cells"]]
            for g in sorted(nb.grades, key=lambda g: order.index(g.name)):
                rows.append((nb.name, g.name, g.score, g.max_score))
    return rows


def stopped_cells(course, student, assignment):
    """{(notebook, grade_id): why} of the graded cells in which grading stopped the kernel or
    saw it die, from the autograded notebooks."""
    from mt_grading import stopped

    out = {}
    for path in glob.glob(os.path.join(course, "autograded", student, assignment, "*.ipynb")):
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
        name = os.path.splitext(os.path.basename(path))[0]
        for i, why in stopped(nb).items():
            grade_id = nb["cells"][i]["metadata"].get("nbgrader", {}).get("grade_id")
            out[(name, grade_id)] = why
    return out


def place(course, student, assignment, notebooks):
    """Puts a student's notebooks of an assignment where nbgrader looks for them."""
    dest = os.path.join(course, "submitted", student, assignment)
    if {os.path.dirname(os.path.abspath(p)) for p in notebooks} != {dest}:
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        for path in notebooks:
            shutil.copy(path, dest)


def grade(course, student, assignment, notebooks):
    """Grades one student's notebooks of an assignment and writes their feedback, printing each
    graded cell's score: (whether both were done, the student's line in the summary)."""
    place(course, student, assignment, notebooks)
    if not os.path.isdir(os.path.join(course, "release", assignment)):
        return False, f"NOT GRADED: {assignment} was not released (make assignments)"
    failed = nbgrader(course, "autograde", assignment, "--student", student, "--force")
    if failed:
        return False, f"NOT GRADED: {failed}"
    failed = nbgrader(course, "generate_feedback", assignment, "--student", student, "--force")
    return report(course, student, assignment, failed)


def report(course, student, assignment, failed):
    """Prints a graded student's scores: (whether they have feedback, their summary line)."""
    rows = scores(course, student, assignment)
    stopped = stopped_cells(course, student, assignment)
    feedback = os.path.join(course, "feedback", student, assignment)
    total = sum(r[2] for r in rows)
    most = sum(r[3] for r in rows)
    print(f"\n{student} {assignment}: {total:g} of {most:g} points "
          f"({'NO FEEDBACK: ' + failed if failed else 'feedback: ' + feedback})")
    for nb, cell, score, top in rows:
        why = stopped.get((nb, cell))
        print(f"  {nb:<16} {cell:<28} {score:g} / {top:g}" + (f"  ({why})" if why else ""))
    line = f"{total:g} of {most:g} points"
    whys = sorted(stopped[(nb, cell)] for nb, cell, _, _ in rows if (nb, cell) in stopped)
    for why in sorted(set(whys)):
        n = whys.count(why)
        line += f"; {why} in {n} graded cell{'s' if n > 1 else ''}"
    if failed:
        line += f"; NO FEEDBACK: {failed}"
    return not failed, line


def together(course, found):
    """Grades the students of each assignment in one nbgrader run (autograde, then feedback),
    which spares a start of nbgrader per student; an assignment whose run fails is graded a
    student at a time, as without --together. [(student, assignment, done, line)]."""
    out = []
    for name in sorted({a for _, a, _ in found}):
        group = [(sid, nbs) for sid, a, nbs in found if a == name]
        for sid, nbs in group:
            place(course, sid, name, nbs)
        failed = (f"{name} was not released" if not os.path.isdir(
            os.path.join(course, "release", name)) else nbgrader(course, "autograde", name,
                                                                 "--force"))
        if failed:
            out += [(sid, name, *grade(course, sid, name, nbs)) for sid, nbs in group]
            continue
        failed = nbgrader(course, "generate_feedback", name, "--force")
        out += [(sid, name, *report(course, sid, name, failed)) for sid, _ in group]
    return out


def autograde(course, path, student, assignment=None, at_once=False):
    """Grades every student of the submission, each assignment of each on its own (at_once:
    each assignment's students in one nbgrader run); returns the exit status: 1 when one could
    not be graded or got no feedback."""
    if not os.path.exists(os.path.join(course, "gradebook.db")):
        raise SystemExit(f"{course} has no gradebook: release the assignment first "
                         "(make assignments)")
    summary = []
    found = submissions(path, student, assignment)
    if at_once:
        summary = together(course, found)
    for sid, name, notebooks in [] if at_once else found:
        try:
            summary.append((sid, name, *grade(course, sid, name, notebooks)))
        except Exception as e:  # a student's submission must not stop the class's grading
            summary.append((sid, name, False, f"NOT GRADED: {type(e).__name__}: {e}"))
    students = sorted({sid for sid, *_ in summary})
    bad = sorted({sid for sid, _, ok, _ in summary if not ok})
    print(f"\nsummary: {len(students)} student{'s' if len(students) > 1 else ''}"
          + (f", {len(bad)} not graded or without feedback: {', '.join(bad)}" if bad else ""))
    width = max(len(sid) for sid in students)
    for sid, name, _, line in summary:
        print(f"  {sid:<{width}}  {name}  {line}")
    return 1 if bad else 0


def main(argv):
    sys.stdout.reconfigure(line_buffering=True)  # between the lines of the nbgrader it runs
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("release")
    r.add_argument("--course", default=COURSE)
    r.add_argument("--assignment", help="the assignment of every NOTEBOOK given (default: each "
                                        "notebook's own, moduleN for mN_*, module3 for others)")
    r.add_argument("notebooks", nargs="*", metavar="NOTEBOOK",
                   help="the assignment's source notebooks (default: those of notebooks/)")
    a = sub.add_parser("autograde")
    a.add_argument("submission")
    a.add_argument("--course", default=COURSE)
    a.add_argument("--student")
    a.add_argument("--assignment", help="grade every notebook in this assignment (default: "
                                        "each notebook's own)")
    a.add_argument("--together", action="store_true",
                   help="each assignment's students in one nbgrader run (quicker for a class; "
                        "an assignment whose run fails is graded a student at a time)")
    args = p.parse_args(argv[1:])
    course = course_dir(args.course)
    if args.cmd == "release":
        release(course, [os.path.abspath(p) for p in args.notebooks], args.assignment)
        return 0
    return autograde(course, args.submission, args.student, args.assignment, args.together)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
