"""tools/notebooks.py's `# %% file PATH` cells: a notebook cell `%%minitorch_file NAME.py` made
from a file of the repository (its docstring left out, `# replace:` edits made), named after the
file when it holds solution regions, and `check` failing once the file changed after the build.
The sources here are written for the test, in a copy of the repository's tools and notebooks."""

import importlib.util
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

FILE = '''"""The docstring of the file where it lives,
on two lines."""
import math

# the kernel's own helper, which a student's copy defines instead
from somewhere import helper

__all__ = ["helper", "twice"]


def twice(x):
    ### BEGIN SOLUTION
    return 2 * x
    ### END SOLUTION
'''


def tools_copy(tmp):
    """tools/notebooks.py in tmp, imported from there (so that its ROOT is tmp), and a
    notebooks/src with only the set-up cell's files."""
    os.makedirs(os.path.join(tmp, "tools"))
    os.makedirs(os.path.join(tmp, "notebooks", "src"))
    for name in ["colab_cell.py", "colab_repo.txt"]:
        shutil.copy(os.path.join(ROOT, "notebooks", "src", name),
                    os.path.join(tmp, "notebooks", "src"))
    shutil.copy(os.path.join(ROOT, "tools", "notebooks.py"), os.path.join(tmp, "tools"))
    spec = importlib.util.spec_from_file_location(
        "notebooks_copy", os.path.join(tmp, "tools", "notebooks.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    os.makedirs(os.path.join(tmp, "lib"))
    with open(os.path.join(tmp, "lib", "mine.py"), "w") as f:
        f.write(FILE)
    return mod


def write_source(tmp, text):
    with open(os.path.join(tmp, "notebooks", "src", "nb.mt"), "w") as f:
        f.write(text)
    return os.path.join(tmp, "notebooks", "src", "nb.mt")


def test_file_cell_is_the_file_without_its_docstring(tmp_path):
    tools = tools_copy(str(tmp_path))
    path = write_source(str(tmp_path), "# %% [markdown]\n# Title\n\n# %% file lib/mine.py\n")
    cells = tools.parse(path)
    assert cells[1] == ("code", "%%minitorch_file mine.py\n"
                                "import math\n"
                                "\n"
                                "# the kernel's own helper, which a student's copy defines "
                                "instead\n"
                                "from somewhere import helper\n"
                                "\n"
                                '__all__ = ["helper", "twice"]\n'
                                "\n"
                                "\n"
                                "def twice(x):\n"
                                "    ### BEGIN SOLUTION\n"
                                "    return 2 * x\n"
                                "    ### END SOLUTION")


def test_replace_takes_the_line_and_its_comment_out(tmp_path):
    tools = tools_copy(str(tmp_path))
    path = write_source(str(tmp_path), (
        "# %% file lib/mine.py\n"
        "# replace: from somewhere import helper\n"
        "\n"
        "def helper(x):\n"
        "    return x + 1\n"
        "\n"
        "# %%\n"
        "print(1)\n"))
    cells = tools.parse(path)
    assert cells == [
        ("code", "%%minitorch_file mine.py\n"
                 "import math\n"
                 "\n"
                 "\n"
                 "def helper(x):\n"
                 "    return x + 1\n"
                 "\n"
                 "\n"
                 '__all__ = ["helper", "twice"]\n'
                 "\n"
                 "\n"
                 "def twice(x):\n"
                 "    ### BEGIN SOLUTION\n"
                 "    return 2 * x\n"
                 "    ### END SOLUTION"),
        ("code", "print(1)"),
    ]


@pytest.mark.parametrize("body, why", [
    ("# replace: import nothing\nx = 1\n", "has the line 'import nothing' 0 times, not once"),
    ("x = 1\n", "a line that is no '# replace: LINE' or part of one"),
])
def test_replace_refuses_what_it_cannot_do(tmp_path, body, why):
    tools = tools_copy(str(tmp_path))
    path = write_source(str(tmp_path), "# %% file lib/mine.py\n" + body)
    with pytest.raises(SystemExit, match=why):
        tools.parse(path)


def test_a_file_with_solutions_is_a_solution_cell_named_after_it(tmp_path):
    tools = tools_copy(str(tmp_path))
    write_source(str(tmp_path), "# %% file lib/mine.py\n\n# %%\n# NBGRADER_TESTS test_twice 3\n"
                                "check('x')\n")
    cells = tools.notebook_cells("nb")
    meta = cells[1][2]["nbgrader"]
    assert meta["grade_id"] == "mine_py" and meta["solution"] and not meta["locked"]
    assert cells[2][2]["nbgrader"]["points"] == 3


def test_check_fails_when_the_file_changed(tmp_path):
    """The course's notebooks copied with the kernel's files: check passes; a comment added to
    kernel/lib/minitorch/scalar.py makes m1_autodiff's stored cell stale, and check says so."""
    tmp = str(tmp_path)
    shutil.copytree(os.path.join(ROOT, "notebooks"), os.path.join(tmp, "notebooks"))
    shutil.copytree(os.path.join(ROOT, "kernel", "lib", "minitorch"),
                    os.path.join(tmp, "kernel", "lib", "minitorch"))
    os.makedirs(os.path.join(tmp, "tools"))
    shutil.copy(os.path.join(ROOT, "tools", "notebooks.py"), os.path.join(tmp, "tools"))
    shutil.copy(os.path.join(ROOT, "README.md"), tmp)

    def check():
        return subprocess.run([sys.executable, os.path.join(tmp, "tools", "notebooks.py"),
                               "check"], capture_output=True, text=True)

    assert check().returncode == 0
    with open(os.path.join(tmp, "kernel", "lib", "minitorch", "scalar.py"), "a") as f:
        f.write("# one more line\n")
    r = check()
    assert r.returncode == 1
    assert ("m1_autodiff: notebooks/m1_autodiff.ipynb does not match its source (code cell "
            in r.stdout)
    assert "a file of the repository the source names with '# %% file' changed" in r.stdout
