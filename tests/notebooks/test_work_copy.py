"""tools/workcopy.py, the copies `make lab` serves: made once, never overwritten, a changed
course notebook said, a fresh copy on request with the student's kept; and git ignores them."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "tools", "workcopy.py")


def run(*args):
    r = subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True, cwd=ROOT)
    return r


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def test_copies_once_keeps_the_students_work_and_says_what_changed(tmp_path):
    source, dest = tmp_path / "notebooks", tmp_path / "mine"
    source.mkdir()
    write(source / "01_tour.ipynb", "course v1")
    write(source / "hello.ipynb", "hello")
    write(source / "colab_setup.ipynb", "colab's own")
    r = run("--source", str(source), "--dest", str(dest))
    assert r.returncode == 0, r.stderr
    assert sorted(os.listdir(dest)) == [".course-copies.json", "01_tour.ipynb", "hello.ipynb"]
    assert "copied to" in r.stdout and "01_tour.ipynb" in r.stdout

    write(dest / "01_tour.ipynb", "the student's work")  # a Run All, an autosave
    r = run("--source", str(source), "--dest", str(dest))
    assert read(dest / "01_tour.ipynb") == "the student's work"
    assert "copied to" not in r.stdout and "changed" not in r.stdout, r.stdout

    write(source / "01_tour.ipynb", "course v2")  # a git pull
    write(source / "m4_networks.ipynb", "new")
    r = run("--source", str(source), "--dest", str(dest))
    assert read(dest / "01_tour.ipynb") == "the student's work"
    assert read(dest / "m4_networks.ipynb") == "new"
    assert "the course's 01_tour.ipynb changed since your copy: `make fresh NB=01_tour`" \
        in r.stdout, r.stdout
    assert "hello.ipynb changed" not in r.stdout

    r = run("fresh", "01_tour", "--source", str(source), "--dest", str(dest))
    assert r.returncode == 0, r.stderr
    assert read(dest / "01_tour.ipynb") == "course v2"
    kept = [n for n in os.listdir(dest) if n.startswith("01_tour.mine-")]
    assert len(kept) == 1 and read(dest / kept[0]) == "the student's work", os.listdir(dest)
    r = run("--source", str(source), "--dest", str(dest))
    assert "changed" not in r.stdout, r.stdout  # the fresh copy is the course's current one


def test_fresh_names_the_notebooks_when_given_another(tmp_path):
    source = tmp_path / "notebooks"
    source.mkdir()
    write(source / "01_tour.ipynb", "x")
    r = run("fresh", "01_tuor", "--source", str(source), "--dest", str(tmp_path / "mine"))
    assert r.returncode != 0
    assert "no course notebook '01_tuor.ipynb': the notebooks are 01_tour" in r.stderr


def test_git_ignores_the_copies_and_the_course_directory_but_its_settings():
    def ignored(path):
        return subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0
    assert ignored("my-notebooks/01_tour.ipynb")
    assert ignored("course/gradebook.db") and ignored("course/release/module0/x.ipynb")
    assert not ignored("course/nbgrader_config.py")
    assert not ignored("notebooks/01_tour.ipynb")


def test_the_copies_leave_out_colabs_setup_cell(tmp_path):
    """The real course notebooks, copied: the same cells but the first, Colab's set-up (the
    kernel's skip-cell mark), which outside Colab has nothing to run."""
    import json

    dest = tmp_path / "mine"
    r = run("--dest", str(dest))
    assert r.returncode == 0, r.stderr
    for name in ("01_tour.ipynb", "m4_networks.ipynb"):
        with open(os.path.join(ROOT, "notebooks", name), encoding="utf-8") as f:
            course = json.load(f)["cells"]
        with open(dest / name, encoding="utf-8") as f:
            mine = json.load(f)["cells"]
        assert "".join(course[0]["source"]).startswith("# minitorch: skip-cell"), name
        assert mine == course[1:], name
