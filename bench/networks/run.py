"""Module 4's convolutions and digit classifier, the kernel against PyTorch on the CPU
(make bench-networks).

Each round runs kernel_side.mt in the kernel and torch_side.py under the Python that has PyTorch
(Debian's python3-torch), alternating which goes first; each side prints the median of 7 timed
runs per case after warm-ups. The table gives, per case, each side's median over the rounds
with its spread (min-max), and PyTorch's time over the kernel's (above 1: the kernel is faster).
Both sides use the same number of threads (--threads, 2 by default: %threads in the kernel,
torch.set_num_threads in PyTorch).

    python bench/networks/run.py --kernel build/minitorch-kernel [--torch-python /usr/bin/python3]
                                 [--rounds 5] [--threads 2] [--out FILE]
"""

import argparse
import glob
import os
import platform
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def cases(text):
    out = {}
    for line in text.splitlines():
        if line.startswith("case "):
            name, ms = line[5:].rsplit(" ", 1)
            out[name] = float(ms)
    return out


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{cmd[0]} failed:\n{r.stdout}\n{r.stderr}")
    return cases(r.stdout)


def cpu_name():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--torch-python", default="/usr/bin/python3")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out")
    a = ap.parse_args()
    digits = sorted(glob.glob(os.path.join(
        ROOT, ".venv", "lib", "python3*", "site-packages", "sklearn", "datasets", "data",
        "digits.csv.gz")))
    if not digits:
        sys.exit("scikit-learn's digits are not in .venv: run make setup")
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "kernel_side.mt")
        with open(os.path.join(HERE, "kernel_side.mt"), encoding="utf-8") as f:
            text = f.read()
        with open(script, "w", encoding="utf-8") as f:
            f.write(f"%threads {a.threads}\n" + text)
        ours, theirs = {}, {}
        for r in range(a.rounds):
            sides = [("kernel", [a.kernel, "run", script]),
                     ("torch", [a.torch_python, os.path.join(HERE, "torch_side.py"), digits[-1],
                                str(a.threads)])]
            for side, cmd in (sides if r % 2 == 0 else sides[::-1]):
                for name, ms in run(cmd).items():
                    (ours if side == "kernel" else theirs).setdefault(name, []).append(ms)
            print(f"round {r + 1} of {a.rounds} done", file=sys.stderr)
    torch_version = subprocess.run([a.torch_python, "-c", "import torch; print(torch.__version__)"],
                                   capture_output=True, text=True).stdout.strip()
    lines = [f"Module 4 on the CPU: the kernel's fast backend against PyTorch {torch_version} "
             f"({a.torch_python}), {a.threads} threads each, {cpu_name()}, {os.cpu_count()} "
             f"cores; {a.rounds} rounds alternating, each side's median over the rounds of its "
             "median of 7 runs (min-max over the rounds), ms",
             "Conv cases: forward and backward of MiniTorch's convolution (input and weight "
             "requiring grad); the epoch: the 8x8-digit LeNet of m4_networks over 1500 digits in "
             "batches of 16, SGD",
             "",
             f"{'case':<40} {'kernel':>22} {'PyTorch':>22} {'PyTorch / kernel':>17}"]
    for name in ours:
        k, t = ours[name], theirs.get(name, [float("nan")])
        km, tm = statistics.median(k), statistics.median(t)
        lines.append(f"{name:<40} {km:>9.3f} ({min(k):.3f}-{max(k):.3f}) "
                     f"{tm:>9.3f} ({min(t):.3f}-{max(t):.3f}) {tm / km:>17.2f}")
    report = "\n".join(lines)
    print(report)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(report + "\n")


if __name__ == "__main__":
    main()
