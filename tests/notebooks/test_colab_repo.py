"""tools/notebooks.py set-repo and check, on a copy of the repository's notebooks and README:
the repository's GitHub location reaches every Colab set-up cell and badge, and check fails
when the README's badges and notebooks/src/colab_repo.txt disagree. And what a student sees
first in a stored course notebook: the set-up cell collapsed, no nbval or nbgrader comment
anywhere (the markers are cell tags and nbgrader's metadata)."""

import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def copy(tmp):
    shutil.copytree(os.path.join(ROOT, "notebooks"), os.path.join(tmp, "notebooks"))
    # the kernel's files whose text notebooks hold (a source's `# %% file` cells)
    shutil.copytree(os.path.join(ROOT, "kernel", "lib", "minitorch"),
                    os.path.join(tmp, "kernel", "lib", "minitorch"))
    os.makedirs(os.path.join(tmp, "tools"))
    shutil.copy(os.path.join(ROOT, "tools", "notebooks.py"), os.path.join(tmp, "tools"))
    shutil.copy(os.path.join(ROOT, "README.md"), tmp)
    return tmp


def tool(tmp, *args):
    return subprocess.run([sys.executable, os.path.join(tmp, "tools", "notebooks.py"), *args],
                          capture_output=True, text=True)


def setup_cell(path):
    """The Colab set-up cell: the first cell of a course notebook, the code cell of
    colab_setup.ipynb (after its markdown)."""
    with open(path, encoding="utf-8") as f:
        cells = json.load(f)["cells"]
    return "".join(next(c for c in cells if c["cell_type"] == "code")["source"])


def test_set_repo_reaches_every_cell_and_badge(tmp_path):
    tmp = copy(str(tmp_path))
    assert tool(tmp, "check").returncode == 0
    r = tool(tmp, "set-repo", "someone/mt-fork")
    assert r.returncode == 0, r.stderr
    with open(os.path.join(tmp, "notebooks", "src", "colab_repo.txt")) as f:
        assert f.read() == "someone/mt-fork\n"
    nbs = [n for n in os.listdir(os.path.join(tmp, "notebooks")) if n.endswith(".ipynb")]
    assert "colab_setup.ipynb" in nbs and "06_training.ipynb" in nbs
    for n in nbs:
        cell = setup_cell(os.path.join(tmp, "notebooks", n))
        assert 'REPO_URL = "https://github.com/someone/mt-fork.git"' in cell, n
        assert "OWNER" not in cell, n
        if n != "colab_setup.ipynb":
            with open(os.path.join(tmp, "notebooks", n), encoding="utf-8") as f:
                assert json.load(f)["cells"][0]["metadata"]["jupyter"] == {"source_hidden": True}
    with open(os.path.join(tmp, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for n in ["colab_setup", "01_tour", "06_training"]:
        assert (f"https://colab.research.google.com/github/someone/mt-fork/blob/main/"
                f"notebooks/{n}.ipynb") in readme
    assert "colab.research.google.com/github/OWNER" not in readme
    assert tool(tmp, "check").returncode == 0


def course_notebooks(root):
    names = sorted(n[:-3] for n in os.listdir(os.path.join(root, "notebooks", "src"))
                   if n.endswith(".mt"))
    assert "hello" in names and "06_training" in names
    return names


def test_setup_cell_collapsed_and_markers_are_tags():
    tagged = 0
    for name in course_notebooks(ROOT):
        with open(os.path.join(ROOT, "notebooks", name + ".ipynb"), encoding="utf-8") as f:
            cells = json.load(f)["cells"]
        meta = {k: v for k, v in cells[0]["metadata"].items() if k != "nbgrader"}
        assert meta == {"cellView": "form", "jupyter": {"source_hidden": True}}
        assert "".join(cells[0]["source"]).startswith("# minitorch: skip-cell"), name
        with open(os.path.join(ROOT, "notebooks", "src", name + ".mt"), encoding="utf-8") as f:
            src = f.read()
        for marker, tag in [("NBVAL_RAISES_EXCEPTION", "raises-exception"),
                            ("NBVAL_IGNORE_OUTPUT", "nbval-ignore-output")]:
            n = sum(1 for c in cells if tag in c["metadata"].get("tags", []))
            assert n == src.count("# " + marker), (name, marker)
            tagged += n
        for c in cells:
            assert "NBVAL_" not in "".join(c["source"]), (name, c["source"])
            assert "NBGRADER_" not in "".join(c["source"]), (name, c["source"])
        graded = sum(1 for c in cells if c["metadata"].get("nbgrader", {}).get("grade"))
        assert graded == src.count("\n# NBGRADER_TESTS "), name
    assert tagged > 10


def test_check_fails_on_stale_badges(tmp_path):
    tmp = copy(str(tmp_path))
    with open(os.path.join(tmp, "notebooks", "src", "colab_repo.txt"), "w") as f:
        f.write("someone/elsewhere\n")
    r = tool(tmp, "check")
    assert r.returncode == 1
    assert "README.md's Colab badges do not match" in r.stdout
    assert "does not match its source" in r.stdout  # the notebooks' set-up cells are stale too


def test_set_repo_refuses_what_is_not_owner_name(tmp_path):
    tmp = copy(str(tmp_path))
    for bad in ["no-slash", "a/b/c", "https://github.com/a/b", "a b/c", "-x/y"]:
        r = tool(tmp, "set-repo", bad)
        assert r.returncode != 0 and "is not a GitHub OWNER/NAME" in r.stderr, bad
    with open(os.path.join(tmp, "notebooks", "src", "colab_repo.txt")) as f:
        assert f.read() == "OWNER/minitorch-kernel\n"
