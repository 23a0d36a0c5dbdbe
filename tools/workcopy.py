"""The student's working copy of the course notebooks, which `make lab` and `make notebook` serve.

    python tools/workcopy.py [--dest my-notebooks]        copy what is missing, say what changed
    python tools/workcopy.py fresh NAME [--dest ...]       a fresh copy of notebooks/NAME.ipynb

The course's notebooks (notebooks/*.ipynb) are tracked by git, and JupyterLab saves a notebook
it has open, outputs and all: served as they are, a Run All would rewrite them and the next
`git pull` would conflict with the student's work. So the lab serves copies, in a folder git
ignores: each notebook is copied there once, when the copy does not exist, and never
overwritten. When the course's notebook changes later (a `git pull`), the copy stays and this
says so; `fresh NAME` then replaces the copy, keeping the student's as NAME.mine-TIME.ipynb.
What each copy was made from is recorded in DEST/.course-copies.json (a hash per notebook).
A copy leaves out the course notebook's first cell where it is Google Colab's set-up (it
starts with the kernel's skip-cell mark): outside Colab there is nothing to run in it.
"""

import argparse
import datetime
import glob
import hashlib
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "notebooks")
DEST = os.path.join(ROOT, "my-notebooks")
RECORD = ".course-copies.json"
# Colab's own set-up notebook, which runs in Colab's Python before the kernel exists
NOT_COPIED = {"colab_setup.ipynb"}
# how a notebook's Colab set-up cell starts: the kernel's mark for a cell that is not its own
SKIP_CELL = "# minitorch: skip-cell"


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def copy_notebook(path, dest):
    """Copies the notebook at path to dest without its Colab set-up cell (a file that is not a
    notebook is copied as it is)."""
    try:
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
        first = nb["cells"][0]
        if first["cell_type"] == "code" and "".join(first["source"]).startswith(SKIP_CELL):
            del nb["cells"][0]
    except (ValueError, KeyError, IndexError, TypeError):
        shutil.copyfile(path, dest)
        return
    with open(dest, "w", encoding="utf-8") as f:
        json.dump(nb, f, indent=1, ensure_ascii=False)
        f.write("\n")


def course_notebooks(source):
    return [p for p in sorted(glob.glob(os.path.join(source, "*.ipynb")))
            if os.path.basename(p) not in NOT_COPIED]


def load_record(dest):
    try:
        with open(os.path.join(dest, RECORD), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def save_record(dest, record):
    path = os.path.join(dest, RECORD)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
    os.replace(path + ".tmp", path)


def fresh_command(command, stem):
    """what the user types for a fresh copy of notebook stem"""
    return f"make fresh NB={stem}" if command == "make" else f"{command} fresh {stem}"


def update(source, dest, command="make"):
    """Copies each course notebook that dest lacks; lists those whose course version changed
    since their copy was made. Returns the names copied. command: how the user asks for a fresh
    copy ("make": `make fresh NB=...` of a checkout; else an installed command's name)."""
    os.makedirs(dest, exist_ok=True)
    record = load_record(dest)
    copied, changed = [], []
    for path in course_notebooks(source):
        name = os.path.basename(path)
        mine = os.path.join(dest, name)
        if not os.path.exists(mine):
            copy_notebook(path, mine)
            record[name] = digest(path)
            copied.append(name)
        elif name in record and record[name] != digest(path):
            changed.append(name)
    save_record(dest, record)
    rel = os.path.relpath(dest)
    if copied:
        print(f"copied to {rel}/: {', '.join(copied)}")
    leave = "git pull and make lab leave" if command == "make" else "a new course version leaves"
    print(f"your notebooks: {rel}/ (your copies: {leave} them as they are)")
    for name in changed:
        stem = name[:-len(".ipynb")]
        print(f"  the course's {name} changed since your copy: `{fresh_command(command, stem)}` "
              f"gives you the new one and keeps yours as {stem}.mine-TIME.ipynb")
    return copied


def fresh(source, dest, name):
    """Replaces dest's copy of notebook name by the course's, keeping the old one beside it.
    Returns the path the old copy was kept at, or None when there was none."""
    name = name if name.endswith(".ipynb") else name + ".ipynb"
    path = os.path.join(source, name)
    if name in NOT_COPIED or not os.path.exists(path):
        names = ", ".join(os.path.basename(p)[:-len(".ipynb")] for p in course_notebooks(source))
        raise SystemExit(f"no course notebook {name!r}: the notebooks are {names}")
    os.makedirs(dest, exist_ok=True)
    mine, kept = os.path.join(dest, name), None
    if os.path.exists(mine):
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        kept = os.path.join(dest, f"{name[:-len('.ipynb')]}.mine-{stamp}.ipynb")
        os.replace(mine, kept)
    copy_notebook(path, mine)
    record = load_record(dest)
    record[name] = digest(path)
    save_record(dest, record)
    print(f"{os.path.relpath(mine)}: a fresh copy of the course's"
          + (f"; yours is kept as {os.path.relpath(kept)}" if kept else ""))
    return kept


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("cmd", nargs="?", choices=["update", "fresh"], default="update")
    p.add_argument("name", nargs="?", help="fresh: the notebook (01_tour or 01_tour.ipynb)")
    p.add_argument("--dest", default=DEST)
    p.add_argument("--source", default=SOURCE)
    p.add_argument("--command", default="make",
                   help="the command the messages tell the user to run (tools/install.sh's)")
    args = p.parse_args(argv[1:])
    if args.cmd == "fresh":
        if not args.name:
            raise SystemExit("usage: " + fresh_command(args.command, "NAME")
                             + " (a course notebook, say 01_tour)")
        fresh(args.source, args.dest, args.name)
    else:
        update(args.source, args.dest, args.command)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
