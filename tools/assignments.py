"""The course notebooks as nbgrader assignments: release them to students, grade what they hand in.

    python tools/assignments.py release [--course DIR] [NOTEBOOK ...]
        (make assignments) the stored notebooks that are assignments (those with nbgrader
        metadata: 02 to 06), or the NOTEBOOKs given, go to DIR/source/module3/, and nbgrader's
        generate_assignment writes the student versions to DIR/release/module3/: solutions
        replaced by the language's stub, outputs cleared, given cells locked.
    python tools/assignments.py autograde SUBMISSION [--course DIR] [--student ID]
        (make autograde) grades a submission with nbgrader's autograde and writes the feedback
        with generate_feedback, then prints each graded cell's score. SUBMISSION is a directory
        holding one student's notebooks (the student's id is the directory's name, or ID), or a
        directory of such directories, one per student (nbgrader's submitted/ layout, with or
        without the module3/ level). Each student is graded on their own: one whose grading
        fails is reported in the summary at the end, and the others are graded. The exit status
        is 1 when a student could not be graded or got no feedback.

DIR is the course directory, notebooks/ by default: nbgrader reads notebooks/nbgrader_config.py
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
import shutil
import subprocess
import sys

TOOLS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TOOLS)
NOTEBOOKS = os.path.join(ROOT, "notebooks")
ASSIGNMENT = "module3"
CONFIG = "nbgrader_config.py"

# nbgrader's gradebook runs the `alembic` command by name: it must find the one installed beside
# this interpreter (the venv's bin/, which need not be on PATH).
os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")


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
    """Runs an nbgrader command in the course directory, its output going to ours; returns
    None, or what failed. The course's nbgrader_config.py imports tools/mt_grading.py; an error
    in that file stops nbgrader (it would otherwise run without any of the course's settings)."""
    cmd = [sys.executable, "-m", "nbgrader", *args]
    path = os.pathsep.join(p for p in (TOOLS, os.environ.get("PYTHONPATH")) if p)
    env = dict(os.environ, PYTHONPATH=path, TRAITLETS_APPLICATION_RAISE_CONFIG_FILE_ERROR="1")
    r = subprocess.run(cmd, cwd=course, env=env)
    if r.returncode != 0:
        return f"nbgrader {args[0]} failed (exit {r.returncode}; its log is above)"
    return None


def course_dir(path):
    course = os.path.abspath(path)
    os.makedirs(course, exist_ok=True)
    if not os.path.exists(os.path.join(course, CONFIG)):
        shutil.copy(os.path.join(NOTEBOOKS, CONFIG), course)
    return course


def release(course, notebooks):
    source = os.path.join(course, "source", ASSIGNMENT)
    shutil.rmtree(source, ignore_errors=True)
    os.makedirs(source)
    names = []
    for path in notebooks or assignment_notebooks():
        shutil.copy(path, source)
        names.append(os.path.basename(path))
    if not names:
        raise SystemExit("no notebook in notebooks/ has nbgrader metadata (tools/notebooks.py "
                         "build writes it)")
    failed = nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
    if failed:
        raise SystemExit(failed)
    out = os.path.join(course, "release", ASSIGNMENT)
    print(f"released {len(names)} notebooks to {out}: {', '.join(names)}")


def submissions(path, student):
    """[(student id, directory of that student's notebooks)] in a submission directory."""
    path = os.path.abspath(path)
    if not os.path.isdir(path):
        raise SystemExit(f"{path}: not a directory")
    if glob.glob(os.path.join(path, "*.ipynb")):
        return [(student or os.path.basename(path), path)]
    if student:
        raise SystemExit(f"--student: {path} holds no notebook of its own")
    found = []
    for d in sorted(os.listdir(path)):
        sub = os.path.join(path, d)
        if os.path.isdir(os.path.join(sub, ASSIGNMENT)):
            sub = os.path.join(sub, ASSIGNMENT)
        if glob.glob(os.path.join(sub, "*.ipynb")):
            found.append((d, sub))
    if not found:
        raise SystemExit(f"{path}: no notebooks, and no directories of a student's notebooks")
    return found


def scores(course, student):
    """Each graded cell's score, in the notebooks' order: [(notebook, cell, score, max score)]."""
    from nbgrader.api import Gradebook

    rows = []
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gb:
        submission = gb.find_submission(ASSIGNMENT, student)
        for nb in sorted(submission.notebooks, key=lambda n: n.name):
            with open(os.path.join(course, "release", ASSIGNMENT, nb.name + ".ipynb"),
                      encoding="utf-8") as f:
                order = [c["metadata"].get("nbgrader", {}).get("grade_id")
                         for c in json.load(f)["cells"]]
            for g in sorted(nb.grades, key=lambda g: order.index(g.name)):
                rows.append((nb.name, g.name, g.score, g.max_score))
    return rows


def stopped_cells(course, student):
    """{(notebook, grade_id): why} of the graded cells in which grading stopped the kernel or
    saw it die, from the autograded notebooks."""
    from mt_grading import stopped

    out = {}
    for path in glob.glob(os.path.join(course, "autograded", student, ASSIGNMENT, "*.ipynb")):
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
        name = os.path.splitext(os.path.basename(path))[0]
        for i, why in stopped(nb).items():
            grade_id = nb["cells"][i]["metadata"].get("nbgrader", {}).get("grade_id")
            out[(name, grade_id)] = why
    return out


def grade(course, student, sub):
    """Grades one student's notebooks and writes their feedback, printing each graded cell's
    score: (whether both were done, the student's line in the summary)."""
    dest = os.path.join(course, "submitted", student, ASSIGNMENT)
    if os.path.abspath(sub) != dest:
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(sub, dest)
    failed = nbgrader(course, "autograde", ASSIGNMENT, "--student", student, "--force")
    if failed:
        return False, f"NOT GRADED: {failed}"
    rows = scores(course, student)
    stopped = stopped_cells(course, student)
    feedback = os.path.join(course, "feedback", student, ASSIGNMENT)
    failed = nbgrader(course, "generate_feedback", ASSIGNMENT, "--student", student, "--force")
    total = sum(r[2] for r in rows)
    most = sum(r[3] for r in rows)
    print(f"\n{student}: {total:g} of {most:g} points "
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


def autograde(course, path, student):
    """Grades every student of the submission, each on their own; returns the exit status: 1
    when one could not be graded or got no feedback."""
    if not os.path.exists(os.path.join(course, "gradebook.db")):
        raise SystemExit(f"{course} has no gradebook: release the assignment first "
                         "(make assignments)")
    summary = []
    for sid, sub in submissions(path, student):
        try:
            summary.append((sid, *grade(course, sid, sub)))
        except Exception as e:  # a student's submission must not stop the class's grading
            summary.append((sid, False, f"NOT GRADED: {type(e).__name__}: {e}"))
    bad = [sid for sid, ok, _ in summary if not ok]
    print(f"\nsummary: {len(summary)} student{'s' if len(summary) > 1 else ''}"
          + (f", {len(bad)} not graded or without feedback: {', '.join(bad)}" if bad else ""))
    width = max(len(sid) for sid, _, _ in summary)
    for sid, _, line in summary:
        print(f"  {sid:<{width}}  {line}")
    return 1 if bad else 0


def main(argv):
    sys.stdout.reconfigure(line_buffering=True)  # between the lines of the nbgrader it runs
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("release")
    r.add_argument("--course", default=NOTEBOOKS)
    r.add_argument("notebooks", nargs="*", metavar="NOTEBOOK",
                   help="the assignment's source notebooks (default: those of notebooks/)")
    a = sub.add_parser("autograde")
    a.add_argument("submission")
    a.add_argument("--course", default=NOTEBOOKS)
    a.add_argument("--student")
    args = p.parse_args(argv[1:])
    course = course_dir(args.course)
    if args.cmd == "release":
        release(course, [os.path.abspath(p) for p in args.notebooks])
        return 0
    return autograde(course, args.submission, args.student)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
