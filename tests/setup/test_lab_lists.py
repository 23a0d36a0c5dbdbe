"""The lean set-up: `make lab` installs what building and running the kernel needs, `make test`
adds the test tools (tools/setup.sh lab|test).

Checked: none of the test tools below (named here, independently of the lists) is in the lab's
Debian list, its Python list or its resolved pinned lock; every one is in the test set; the test
lock includes the lab lock and pins nothing twice; the lab lock is closed under its packages'
dependencies (so pip installs nothing beyond it, and no test tool arrives as a dependency); the
Debian lab list's dependency closure, where apt-cache can tell, has no test tool; and the make
targets pick the right set; the lab's targets build the student's kernel (tools/build-release.sh
--lab: the kernel alone, the cuda backend only where a GPU driver is loaded), `make build` all of
it, checked with a stand-in cmake that logs what the script asks of it."""

import os
import re
import shutil
import subprocess
from importlib import metadata

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(ROOT, "tools")

DEBIAN_TEST_TOOLS = {"clang", "libomp-dev", "libclang-rt-dev", "clang-format", "chromium",
                     "valgrind"}
# numpy is no test tool only: scikit-learn (Module 4's digits) brings it into the lab set too
PYTHON_TEST_TOOLS = {"pytest", "nbval", "hypothesis", "playwright", "vl-convert-python",
                     "jupyter-kernel-test", "coverage"}


def words(name):
    """A Debian list: whitespace-separated package names, '#' comments."""
    with open(os.path.join(TOOLS, name), encoding="utf-8") as f:
        return [w for ln in f for w in ln.split("#", 1)[0].split()]


def requirements(name):
    """A requirements file: {canonical name: the requirement line}, and its -r includes."""
    reqs, includes = {}, []
    with open(os.path.join(TOOLS, name), encoding="utf-8") as f:
        for ln in f:
            ln = ln.split("#", 1)[0].strip()
            if ln.startswith("-r "):
                includes.append(ln[3:].strip())
            elif ln:
                req = Requirement(ln)
                name_ = canonicalize_name(req.name)
                assert name_ not in reqs, f"{name}: {req.name} listed twice"
                reqs[name_] = req
    return reqs, includes


def pins(name):
    reqs, includes = requirements(name)
    out = {}
    for n, req in reqs.items():
        spec = list(req.specifier)
        assert len(spec) == 1 and spec[0].operator == "==", f"{name}: {req} is not pinned"
        out[n] = spec[0].version
    return out, includes


def test_debian_lab_list_has_no_test_tool():
    lab, test = set(words("debian-lab.txt")), set(words("debian-test.txt"))
    assert {"build-essential", "cmake", "pkg-config", "libzmq3-dev", "libjansson-dev",
            "libsodium-dev"} <= lab
    assert not lab & DEBIAN_TEST_TOOLS, f"test tools in tools/debian-lab.txt: {lab & DEBIAN_TEST_TOOLS}"
    assert DEBIAN_TEST_TOOLS <= test, f"missing from tools/debian-test.txt: {DEBIAN_TEST_TOOLS - test}"
    assert not lab & test, f"in both Debian lists: {lab & test}"


def test_python_lab_list_and_lock_have_no_test_tool():
    lab_in, lab_in_includes = requirements("requirements-lab.in")
    lab, lab_includes = pins("requirements-lab.txt")
    assert not lab_in_includes and not lab_includes
    for n in ("jupyterlab", "notebook"):
        assert n in lab_in and n in lab
    for where, names in [("requirements-lab.in", set(lab_in)), ("requirements-lab.txt", set(lab))]:
        assert not names & PYTHON_TEST_TOOLS, f"test tools in tools/{where}: {names & PYTHON_TEST_TOOLS}"
    # the lock is the resolution of the list: every listed package at the listed version
    for n, req in lab_in.items():
        assert n in lab and req.specifier.contains(lab[n]), f"lab lock {n}=={lab.get(n)} vs {req}"


def test_test_lock_adds_the_test_tools_to_the_lab_lock():
    lab, _ = pins("requirements-lab.txt")
    test, includes = pins("requirements-test.txt")
    test_in, test_in_includes = requirements("requirements-test.in")
    assert includes == ["requirements-lab.txt"], "the test lock must include the lab lock"
    assert test_in_includes == ["requirements-lab.in"]
    assert not set(test) & set(lab), f"pinned in both locks: {set(test) & set(lab)}"
    assert PYTHON_TEST_TOOLS <= set(test), f"missing from the test lock: {PYTHON_TEST_TOOLS - set(test)}"
    both = {**lab, **test}
    for n, req in test_in.items():
        assert n in both and req.specifier.contains(both[n]), f"test lock {n}=={both.get(n)} vs {req}"


def test_lab_lock_is_closed_under_dependencies():
    """Read from the installed packages' metadata (the venv that runs this holds the lab lock's
    versions): each dependency of a lab package, for this interpreter, is pinned in the lab lock."""
    lab, _ = pins("requirements-lab.txt")
    missing = []
    for n, version in lab.items():
        try:
            dist = metadata.distribution(n)
        except metadata.PackageNotFoundError:
            pytest.fail(f"{n} is in the lab lock but not in this venv (make setup-test)")
        assert dist.version == version, f".venv has {n} {dist.version}, the lab lock {version}"
        for r in dist.requires or []:
            req = Requirement(r)
            if req.marker and not req.marker.evaluate({"extra": ""}):
                continue
            if canonicalize_name(req.name) not in lab:
                missing.append(f"{n} -> {req}")
    assert not missing, f"dependencies missing from the lab lock: {missing}"


def test_debian_lab_closure_has_no_test_tool():
    """apt-cache's dependency closure of the lab list (Depends and Pre-Depends, as
    `apt-get install --no-install-recommends` installs them)."""
    if not shutil.which("apt-cache"):
        pytest.skip("no apt-cache on this machine")
    lab = words("debian-lab.txt")
    r = subprocess.run(["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests",
                        "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances", *lab],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"apt-cache has no package lists here: {r.stderr.strip()[:200]}")
    closure = {ln.strip() for ln in r.stdout.splitlines() if ln and not ln[0].isspace()}
    assert set(lab) <= closure
    bad = {p for p in closure
           if p in DEBIAN_TEST_TOOLS or re.match(r"(clang|llvm|libclang|chromium|valgrind)", p)}
    assert not bad, f"`make lab` would install test tools as dependencies: {sorted(bad)}"


def make(*args, ok=(0,)):
    r = subprocess.run(["make", "-C", ROOT, "--no-print-directory", *args],
                       capture_output=True, text=True)
    assert r.returncode in ok, r.stderr
    return r.stdout


@pytest.mark.parametrize("target", ["lab", "notebook", "install-kernelspec", "build"])
def test_lab_targets_set_up_the_lab_set_only(target):
    out = make("-n", target)  # these recipes have no $(MAKE) line, so -n runs nothing
    assert "tools/setup.sh lab" in out and "tools/setup.sh test" not in out


def test_test_target_sets_up_the_test_set():
    db = make("-qp", ok=(0, 1))  # the rules as make reads them, nothing run (1: not up to date)
    rule = re.search(r"^test:(.*)\n((?:#.*\n|\t.*\n)*)", db, re.M)
    assert rule
    # a prerequisite, or the first of the steps the recipe times (`for b in setup-test build ...`)
    steps = re.search(r"for b in ([\w -]+);", rule.group(2))
    first_step = steps.group(1).split()[0] if steps else None
    assert "setup-test" in rule.group(1).split() or first_step == "setup-test"
    assert re.search(r"^setup-test:.*\n(?:#.*\n)*\ttools/setup\.sh test$", db, re.M)


@pytest.mark.parametrize("target", ["lab", "notebook", "install-kernelspec"])
def test_lab_targets_build_the_students_kernel_only(target):
    out = make("-n", target)
    assert "tools/build-release.sh --lab" in out
    assert "build-lab/minitorch-kernel install --prefix" in out
    assert not re.search(r"build-release\.sh(?! --lab)", out)  # no build of everything


def release_build_commands(tmp_path, *args, driver=False, pgo="1"):
    """The cmake commands tools/build-release.sh runs, with a stand-in cmake on PATH that logs
    them (one line each) and makes the files the script reads; `driver`: whether the GPU
    driver's file it probes for is there."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "cmake.log"
    (bin_dir / "cmake").write_text(
        "#!/bin/sh\n"
        'echo "$*" >> "$CMAKE_LOG"\n'
        # configuring (-B DIR): the cache the script reads the MT_ options from
        'if [ "$3" = -B ]; then mkdir -p "$4/CMakeFiles"; echo "MT_X:BOOL=ON" > "$4/CMakeCache.txt"; fi\n'
        # building DIR-pgo: the instrumented kernel, newer than any stamp
        'case "$2" in *-pgo) touch "$2/minitorch-kernel";; esac\n')
    (bin_dir / "cmake").chmod(0o755)
    probe = tmp_path / "nvidia-version"
    if driver:
        probe.write_text("NVRM version: stand-in\n")
    work = tmp_path / "repo"
    shutil.copytree(os.path.join(ROOT, "tools"), work / "tools")
    (work / "tests" / "scripts").mkdir(parents=True)
    env = dict(os.environ, PATH="%s:%s" % (bin_dir, os.environ["PATH"]), CMAKE_LOG=str(log),
               MT_NVIDIA_PROC=str(probe), PGO=pgo, CC="gcc", JOBS="2")
    r = subprocess.run(["sh", "tools/build-release.sh", *args], cwd=work, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return log.read_text().splitlines()


def test_students_build_leaves_out_tests_and_cuda_without_a_driver(tmp_path):
    cmds = release_build_commands(tmp_path, "--lab")
    configure = [c for c in cmds if c.startswith("-S . -B build-lab ")]
    assert configure and all("-DMT_BUILD_TESTS=OFF" in c and "-DMT_CUDA=OFF" in c
                             for c in configure)
    builds = [c for c in cmds if c.startswith("--build")]
    assert builds and all(c.endswith("--target minitorch-kernel") for c in builds)
    assert any(c.startswith("--build build-lab-pgo ") for c in builds)  # profile-guided
    assert not any(" build " in c + " " or c.endswith(" build") for c in cmds)


def test_students_build_keeps_cuda_with_a_driver_and_a_given_option_wins(tmp_path):
    cmds = release_build_commands(tmp_path, "--lab", "-DMT_CUDA=ON", driver=True, pgo="0")
    (configure,) = [c for c in cmds if c.startswith("-S . -B build-lab ")]
    assert configure.index("-DMT_CUDA=AUTO") < configure.index("-DMT_CUDA=ON")  # last wins


def test_release_build_builds_everything(tmp_path):
    cmds = release_build_commands(tmp_path)
    configure = [c for c in cmds if c.startswith("-S . -B build ")]
    assert configure and not any("MT_BUILD_TESTS=OFF" in c or "MT_CUDA" in c for c in configure)
    assert cmds[-1] == "--build build -j2 --target all"
