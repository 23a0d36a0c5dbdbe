#!/usr/bin/env python3
"""ab.py — two builds of the kernel timed against each other, run after run (make bench-ab).

A refactoring must leave speed alone; one run of each side proves nothing on a shared machine,
so the sides alternate (before, after, after, before, ...) over several rounds, and each row
says the after side's median beside the spread of the before side's runs. A row outside that
spread is marked, for a closer look (another round, a quieter machine), not judged.

    bench/ab.py BEFORE_BUILD AFTER_BUILD [--rounds N] [--only ops,lang,train,jit]

Each BUILD is a build folder with minitorch-kernel and the benchmarks (cmake --build DIR
--target mt_ops_bench mt_lang_bench mt_train_bench). Rows: mt_ops_bench --quick (GB/s, ns),
mt_lang_bench (ns per op or call), mt_train_bench (time per epoch), and the students' njit
kernels of bench/jit/kernels.mt on 2 threads (ms per call, and the first call in s, compiled
into an empty cache).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROW_OPS = re.compile(r"^(.+?)\s+(\d+)\s+([\d.]+)\s+\[([\d.]+) \.\. ([\d.]+)\].*?(\S+)\s*$")
ROW_LANG = re.compile(r"^(\S+\s+\S+|[a-z][a-z .()]+?)\s+(\d+)\s+\[\s*\d+ \.\.\s+\d+\]")
ROW_TRAIN = re.compile(r"^\s+(.+?)\s+([\d.]+) (us|ms)/epoch")


def run(cmd, env=None):
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    return out.stdout


def ops(build):
    rows = {}
    for line in run([os.path.join(build, "mt_ops_bench"), "--quick"]).splitlines():
        m = ROW_OPS.match(line)
        if m:
            rows[f"ops: {m.group(1).strip()} ({m.group(2)} thr, {m.group(6)})"] = float(m.group(3))
    return rows


def lang(build):
    rows, section = {}, ""
    for line in run([os.path.join(build, "mt_lang_bench"), "--reps", "5"]).splitlines():
        if line.startswith(("per-op", "call cost")):
            section = "op" if line.startswith("per-op") else "call"
        m = ROW_LANG.match(line)
        if m and section:
            rows[f"lang: {' '.join(m.group(1).split())} (ns/{section})"] = float(m.group(2))
    return rows


def train(build):
    rows, case = {}, ""
    cmd = [os.path.join(build, "mt_train_bench"), "--reps", "3", "--epochs", "20", "--seeds", "5"]
    for line in run(cmd).splitlines():
        if line.endswith("epochs:") or line.endswith("epoch:"):
            case = line.rstrip(":").split(",")[1].strip() + "," + line.split(",")[2]
        m = ROW_TRAIN.match(line)
        if m and case:
            us = float(m.group(2)) * (1000.0 if m.group(3) == "ms" else 1.0)
            rows[f"train: {case.strip()}, {m.group(1)} (us/epoch)"] = us
    return rows


def jit(build):
    rows = {}
    with tempfile.TemporaryDirectory() as work:
        script = os.path.join(work, "kernels.mt")
        with open(script, "w") as f, open(os.path.join(HERE, "jit", "kernels.mt")) as src:
            f.write("%threads 2\nFIRST_ONLY = 0\n" + src.read())
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
        out = run([os.path.join(build, "minitorch-kernel"), "run", script], env)
    members = [line for line in out.splitlines() if line.startswith('"')]
    data = json.loads("{" + ",".join(m.rstrip(",") for m in members) + "}")
    for name, v in data.items():
        if "median_ms" in v:
            rows[f"jit: {name} (ms per call)"] = v["median_ms"]
        if "first_s" in v:
            rows[f"jit: {name}, first call (s)"] = v["first_s"]
    return rows


BENCHES = {"ops": ops, "lang": lang, "train": train, "jit": jit}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default=",".join(BENCHES))
    a = ap.parse_args()
    names = [n for n in a.only.split(",") if n]
    runs = {"before": {}, "after": {}}
    for r in range(a.rounds):
        order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
        for name in names:
            for side in order:
                build = a.before if side == "before" else a.after
                for row, v in BENCHES[name](build).items():
                    runs[side].setdefault(row, []).append(v)
        print(f"round {r + 1} of {a.rounds} done", file=sys.stderr)
    print(f"{a.rounds} rounds, sides alternating; before: {a.before}, after: {a.after}")
    print(f"{'row':70} {'before median [min .. max]':>30} {'after median':>13}")
    outside = 0
    for row, b in runs["before"].items():
        f = runs["after"].get(row)
        if not f:
            continue
        mb, ma = statistics.median(b), statistics.median(f)
        mark = "" if min(b) <= ma <= max(b) else "  outside"
        outside += bool(mark)
        print(f"{row[:70]:70} {mb:10.4g} [{min(b):8.4g} .. {max(b):8.4g}] {ma:13.4g}{mark}")
    print(f"{outside} of {len(runs['before'])} rows: the after median outside the before runs")


if __name__ == "__main__":
    main()
