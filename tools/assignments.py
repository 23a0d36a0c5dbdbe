"""The course notebooks as nbgrader assignments: release them to students, grade what they hand in.

    python tools/assignments.py release [--course DIR]
        (make assignments) the stored notebooks that are assignments (those with nbgrader
        metadata: 02 to 06) go to DIR/source/module3/, and nbgrader's generate_assignment writes
        the student versions to DIR/release/module3/: solutions replaced by the language's stub,
        outputs cleared, given cells locked.
    python tools/assignments.py autograde SUBMISSION [--course DIR] [--student ID]
        (make autograde) grades a submission with nbgrader's autograde and writes the feedback
        with generate_feedback, then prints each graded cell's score. SUBMISSION is a directory
        holding one student's notebooks (the student's id is the directory's name, or ID), or a
        directory of such directories, one per student (nbgrader's submitted/ layout, with or
        without the module3/ level).

DIR is the course directory, notebooks/ by default: nbgrader reads notebooks/nbgrader_config.py
there (the kernel's language and its code stub) and keeps its gradebook (gradebook.db),
submitted/, autograded/ and feedback/ in it. Grading runs the notebooks with the MiniTorch
kernel, which must be installed as a kernelspec Jupyter finds (`make install-kernelspec`).
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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
    """Runs an nbgrader command in the course directory; its output goes to ours."""
    cmd = [sys.executable, "-m", "nbgrader", *args]
    r = subprocess.run(cmd, cwd=course)
    if r.returncode != 0:
        raise SystemExit(f"nbgrader {' '.join(args)} failed (exit {r.returncode}); "
                         "its log is above")


def course_dir(path):
    course = os.path.abspath(path)
    os.makedirs(course, exist_ok=True)
    if not os.path.exists(os.path.join(course, CONFIG)):
        shutil.copy(os.path.join(NOTEBOOKS, CONFIG), course)
    return course


def release(course):
    source = os.path.join(course, "source", ASSIGNMENT)
    shutil.rmtree(source, ignore_errors=True)
    os.makedirs(source)
    names = []
    for path in assignment_notebooks():
        shutil.copy(path, source)
        names.append(os.path.basename(path))
    if not names:
        raise SystemExit("no notebook in notebooks/ has nbgrader metadata (tools/notebooks.py "
                         "build writes it)")
    nbgrader(course, "generate_assignment", ASSIGNMENT, "--force")
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


def autograde(course, path, student):
    if not os.path.exists(os.path.join(course, "gradebook.db")):
        raise SystemExit(f"{course} has no gradebook: release the assignment first "
                         "(make assignments)")
    for sid, sub in submissions(path, student):
        dest = os.path.join(course, "submitted", sid, ASSIGNMENT)
        if os.path.abspath(sub) != dest:
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(sub, dest)
        nbgrader(course, "autograde", ASSIGNMENT, "--student", sid, "--force")
        nbgrader(course, "generate_feedback", ASSIGNMENT, "--student", sid, "--force")
        rows = scores(course, sid)
        total = sum(r[2] for r in rows)
        most = sum(r[3] for r in rows)
        print(f"\n{sid}: {total:g} of {most:g} points "
              f"(feedback: {os.path.join(course, 'feedback', sid, ASSIGNMENT)})")
        for nb, cell, score, top in rows:
            print(f"  {nb:<16} {cell:<28} {score:g} / {top:g}")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("release")
    r.add_argument("--course", default=NOTEBOOKS)
    a = sub.add_parser("autograde")
    a.add_argument("submission")
    a.add_argument("--course", default=NOTEBOOKS)
    a.add_argument("--student")
    args = p.parse_args(argv[1:])
    course = course_dir(args.course)
    if args.cmd == "release":
        release(course)
    else:
        autograde(course, args.submission, args.student)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
