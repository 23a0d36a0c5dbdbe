"""The course notebooks as nbgrader assignments, graded by real nbgrader with the MiniTorch kernel.

tools/assignments.py releases the course's assignments, module0 (m0_fundamentals), module1
(m1_autodiff), module2 (m2_tensors), module3 (notebooks 02 to 06) and module4 (m4_networks), into a temporary course directory (nbgrader's
generate_assignment with course/nbgrader_config.py), then grades three submissions with
nbgrader's autograde and writes their feedback with generate_feedback:
- the solutions (the stored notebooks, of every module handed in at once): full marks on every
  graded cell;
- the release as a student gets it: no crash, every notebook graded, zero on every graded cell,
  the template's NotImplementedError in the tests' output.
Bugs planted in one function, which cost that function's cells only, and cheats are
test_catalogue.py's.
The kernelspec is the one tools/kernel-test-env.sh installs (JUPYTER_PATH); run through
tools/run-assignment-tests.sh.
"""

import glob
import json
import os
import shutil
import subprocess
import sys

import pytest

from course_tools import ROOT, TOOL, grades, tool  # tests/assignments/course_tools.py

ASSIGNMENTS = {"module0": ["m0_fundamentals"],
               "module1": ["m1_autodiff"],
               "module2": ["m2_tensors"],
               "module3": ["02_parallel", "03_matmul", "04_cuda_ops", "05_cuda_matmul",
                           "06_training"],
               "module4": ["m4_networks"]}


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    course = str(tmp_path_factory.mktemp("course"))
    tool(course, "release")
    return course


def graded_cells(path):
    """{grade_id: points} of a notebook's autograded test cells."""
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)
    return {c["metadata"]["nbgrader"]["grade_id"]: c["metadata"]["nbgrader"]["points"]
            for c in nb["cells"] if c["metadata"].get("nbgrader", {}).get("grade")}


@pytest.mark.parametrize("assignment", sorted(ASSIGNMENTS))
def test_release_is_the_student_version(course, assignment):
    release = os.path.join(course, "release", assignment)
    assert sorted(os.listdir(release)) == sorted(n + ".ipynb" for n in ASSIGNMENTS[assignment])
    for name in ASSIGNMENTS[assignment]:
        with open(os.path.join(release, name + ".ipynb"), encoding="utf-8") as f:
            nb = json.load(f)
        assert nb["metadata"]["kernelspec"]["name"] == "minitorch"
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        text = "".join("".join(c["source"]) for c in code)
        assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
        assert "# YOUR CODE HERE\n" in text and "raise NotImplementedError()" in text
        assert not any(c.get("outputs") for c in code), f"{name}: outputs left in the release"
        solutions = [c for c in code if c["metadata"]["nbgrader"]["solution"]]
        assert solutions and all(c["metadata"].get("editable", True) for c in solutions)
        given = [c for c in code if not c["metadata"]["nbgrader"]["solution"]]
        assert all(c["metadata"].get("editable") is False for c in given), \
            f"{name}: a given or test cell can be edited"
        assert graded_cells(os.path.join(release, name + ".ipynb")), f"{name}: no graded cell"


def test_solutions_get_full_marks(course, tmp_path):
    sub = tmp_path / "solutions"
    sub.mkdir()
    for names in ASSIGNMENTS.values():
        for name in names:
            shutil.copy(os.path.join(ROOT, "notebooks", name + ".ipynb"), sub)
    tool(course, "autograde", str(sub), "--student", "solutions")
    for assignment, names in ASSIGNMENTS.items():
        got = grades(course, "solutions", assignment)
        want = {(name, gid): (pts, pts) for name in names
                for gid, pts in graded_cells(os.path.join(ROOT, "notebooks",
                                                          name + ".ipynb")).items()}
        assert got == want, assignment


def test_untouched_release_scores_zero_without_a_crash(course, tmp_path):
    # handed in as nbgrader's collect lays submissions out: a directory per student, and in it
    # one per assignment
    for assignment in ASSIGNMENTS:
        shutil.copytree(os.path.join(course, "release", assignment),
                        tmp_path / "submitted" / "untouched" / assignment)
    tool(course, "autograde", str(tmp_path / "submitted"))
    for assignment, names in ASSIGNMENTS.items():
        got = grades(course, "untouched", assignment)
        assert {nb for nb, _ in got} == set(names), "a notebook was not graded"
        assert got and all(score == 0 and top > 0 for score, top in got.values()), got
    for assignment, name in [(a, n) for a, names in ASSIGNMENTS.items() for n in names]:
        path = os.path.join(course, "autograded", "untouched", assignment, name + ".ipynb")
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
        for c in nb["cells"]:
            meta = c["metadata"].get("nbgrader", {})
            errors = [o for o in c.get("outputs", []) if o["output_type"] == "error"]
            if meta.get("grade"):
                assert errors, f"{name} {meta['grade_id']}: no error"
            elif meta.get("solution"):  # the template's cells themselves run
                assert not errors, f"{name} {meta['grade_id']}: {errors[0]['ename']}"
    feedback = os.path.join(course, "feedback", "untouched", "module3", "02_parallel.html")
    with open(feedback, encoding="utf-8") as f:
        html = f.read()
    assert "raised NotImplementedError" in html


def test_autograde_refuses_without_a_release(tmp_path):
    r = subprocess.run([sys.executable, TOOL, "autograde", str(tmp_path), "--course",
                        str(tmp_path / "empty")], capture_output=True, text=True)
    assert r.returncode != 0 and "release the assignment first" in r.stderr
    assert not glob.glob(str(tmp_path / "empty" / "*.db"))
