"""How long a student's first `make lab` takes to reach JupyterLab's URL, on this machine with its
Debian packages installed and pip's cache warm (a student's second clone, a lab machine set up
once): this repository's HEAD cloned into a temporary directory, `make lab` run there, each
line it prints time-stamped, and the run stopped once the URL is printed. The phases are read
from the lines: set-up (tools/setup.sh: .venv made, the lab lock installed from the cache),
the build (tools/build-release.sh --lab), the rest (kernelspec, the notebooks' copies,
JupyterLab starting). With --full, the same clone then builds everything as `make test` does
(`make build`: the C tests, and the cuda backend where nvcc is), timed, for comparison.

    python bench/lab_first_start.py [--runs 1] [--full] [--out FILE]

Prints the table, also to FILE when given; the clones are removed afterwards.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
URL = re.compile(r"http://127\.0\.0\.1:\d+/")


def du(path):
    out = subprocess.run(["du", "-sm", path], capture_output=True, text=True).stdout
    return int(out.split()[0]) if out else 0


def one_run(log, full):
    work = tempfile.mkdtemp(prefix="mt-lab-start-")
    clone = os.path.join(work, "minitorch-kernel")
    try:
        subprocess.run(["git", "clone", "-q", ROOT, clone], check=True)
        head = subprocess.run(["git", "-C", clone, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        env = dict(os.environ, CI="true")
        env.pop("MAKEFLAGS", None)
        t0 = time.monotonic()
        p = subprocess.Popen(["make", "lab"], cwd=clone, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
        marks = {}
        url_at = None
        for line in p.stdout:
            t = time.monotonic() - t0
            log.write("%7.1f %s" % (t, line))
            if "setup.sh lab" in line and "setup" not in marks:
                marks["setup"] = t
            if "build-release.sh --lab" in line and "build" not in marks:
                marks["build"] = t
            if "install --prefix" in line and "install" not in marks:
                marks["install"] = t
            if URL.search(line):
                url_at = t
                break
        os.killpg(p.pid, signal.SIGINT)
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
        if url_at is None:
            sys.exit("make lab ended (rc %s) without printing a URL; log above" % p.returncode)
        venv = du(os.path.join(clone, ".venv"))
        build = du(os.path.join(clone, "build-lab")) + du(os.path.join(clone, "build-lab-pgo"))
        everything = None
        if full:
            t1 = time.monotonic()
            r = subprocess.run(["make", "build", "NO_SETUP=1"], cwd=clone, env=env,
                               stdout=log, stderr=subprocess.STDOUT)
            if r.returncode != 0:
                sys.exit("make build failed; log: %s" % log.name)
            everything = time.monotonic() - t1
        return head, marks, url_at, venv, build, everything
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--out")
    a = ap.parse_args()
    rows = []
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as log:
        for _ in range(a.runs):
            rows.append(one_run(log, a.full))
    lines = ["# first `make lab` of a fresh clone, to JupyterLab's URL (seconds); %d CPUs, "
             "Debian packages present, pip cache warm; log: %s" % (os.cpu_count(), log.name),
             "  %-8s %8s %8s %8s %8s %9s %9s %11s" % ("commit", "set-up", "build", "rest",
                                                      "to URL", ".venv MB", "build MB",
                                                      "make build")]
    for head, m, url_at, venv, build, everything in rows:
        setup = m.get("build", 0) - m.get("setup", 0)
        building = m.get("install", url_at) - m.get("build", 0)
        rest = url_at - m.get("install", url_at)
        lines.append("  %-8s %8.0f %8.0f %8.0f %8.0f %9d %9d %11s"
                     % (head, setup, building, rest, url_at, venv, build,
                        "%.0f" % everything if everything is not None else "-"))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
