"""Soak test (`make soak`, not in every CI run): the kernel under a long, mixed session, through a
real Jupyter client (jupyter_client, with tests/protocol/mtkernel.py's helpers).

1. One kernel, N execute requests (default 10,000) cycling through mixed cells: tensor ops and
   matmuls, autodiff, training, prints and displays, errors of several kinds, large outputs
   (past the per-cell output limit), %reset, and every 250th request a `sleep` interrupted by
   an interrupt_request. Each reply must have the status its cell calls for. The kernel
   process's RSS is read after a warm-up of 500 requests and at the end: it may grow by at most
   2 MB (10^6 bytes... the issue's unit: MB).
2. C cycles (default 100) of: start a kernel, run a cell, interrupt a sleeping cell, shut it down
   (with shutdown_request); every kernel process must exit by itself with status 0.

Prints the figures (requests, their statuses, interrupts, RSS at warm-up and at the end, the
growth, cycles, time) and exits non-zero when any check fails.

    python tests/soak/soak.py [--requests N] [--cycles C]     (MT_KERNEL_BIN picks the binary)
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "protocol"))

import psutil  # noqa: E402

import mtkernel  # noqa: E402
from mtkernel import (KERNEL_NAME, execute, get_reply, send_control, start_kernel,  # noqa: E402
                      stop_kernel, wait_started)

# (cell, the reply status it must get)
CELLS = [
    ("x = rand(64, 64)\ny = x @ x + x\ny.sum(0).mean().item()", "ok"),
    ("w = rand(8, 4, requires_grad=true)\n((rand(5, 8) @ w).relu().sum()).backward()\nw.grad.shape", "ok"),
    ('print("line " * 20)', "ok"),
    ('display(tensor([[1, 2], [3, 4]]))', "ok"),
    ("undefined_name + 1", "error"),
    ("tensor([1, 2, 3]) + tensor([1, 2])", "error"),
    ("zeros(100000, 100000, 100000)", "error"),
    ("def f(n):\n    return f(n + 1)\nf(0)", "error"),
    ('print("x" * 1000)\nfor i in range(300):\n    print(i, "y" * 200)', "ok"),
    ('s = "z" * 100000\nlen(s)', "ok"),
    ('ds = dataset("xor", 30, seed=1)\nm = mlp(2, 8, 1)\ntrain(m, ds, epochs=3, log=0)', "ok"),
    ("t = rand(3, 4)\nt.permute(1, 0).contiguous().view(12).tolist()[0] >= 0", "ok"),
    ("1 / 0", "error"),
    ('[i * i for i in range(3)]', "error"),  # no comprehensions in the language: a SyntaxError
    ("%reset -f", "ok"),
    ('q = ones(256, 256)\n(q * 2).sum().item()', "ok"),
]


def rss_bytes(km) -> int:
    return psutil.Process(mtkernel.kernel_pid(km)).memory_info().rss


def interrupt_sleep(kc) -> str:
    msg_id = kc.execute("sleep(30)")
    wait_started(kc, msg_id)
    time.sleep(0.02)
    ctl = send_control(kc, "interrupt_request", {})
    reply = get_reply(kc, msg_id, timeout=10)
    get_reply(kc, ctl, channel="control")
    return reply["content"].get("ename", reply["content"]["status"])


def session(requests: int) -> list[str]:
    problems: list[str] = []
    km, kc = start_kernel(KERNEL_NAME)
    counts = {"ok": 0, "error": 0}
    interrupts = 0
    rss_warm = None
    t0 = time.time()
    try:
        for i in range(requests):
            if i == 500:
                rss_warm = rss_bytes(km)
            if i % 250 == 249:
                got = interrupt_sleep(kc)
                interrupts += 1
                if got != "KeyboardInterrupt":
                    problems.append(f"request {i}: the interrupted sleep ended with {got}")
                continue
            code, want = CELLS[i % len(CELLS)]
            r = execute(kc, code, timeout=60)
            counts[r.status] = counts.get(r.status, 0) + 1
            if r.status != want:
                problems.append(f"request {i}: {code!r} gave {r.status}, want {want}")
                if len(problems) > 20:
                    break
        rss_end = rss_bytes(km)
        if not km.is_alive():
            problems.append("the kernel died")
    finally:
        stop_kernel(km, kc)
    seconds = time.time() - t0
    growth = rss_end - (rss_warm or rss_end)
    print(f"session: {requests} requests in {seconds:.0f} s: {counts.get('ok', 0)} ok, "
          f"{counts.get('error', 0)} errors as meant, {interrupts} interrupted sleeps")
    print(f"session: RSS {rss_warm / 2**20:.2f} MiB after 500 requests, {rss_end / 2**20:.2f} MiB "
          f"at the end: growth {growth / 1e6:.3f} MB (limit 2 MB)")
    if growth > 2e6:
        problems.append(f"RSS grew by {growth / 1e6:.2f} MB")
    return problems


def cycles(n: int) -> list[str]:
    problems: list[str] = []
    t0 = time.time()
    for i in range(n):
        km, kc = start_kernel(KERNEL_NAME)
        proc = mtkernel.kernel_process(km)
        try:
            if execute(kc, "x = rand(10, 10)\n(x @ x).sum().item() > 0").status != "ok":
                problems.append(f"cycle {i}: the cell failed")
            if interrupt_sleep(kc) != "KeyboardInterrupt":
                problems.append(f"cycle {i}: the interrupt did not end the sleep")
            kc.shutdown()
            code = proc.wait(timeout=10)
            if code != 0:
                problems.append(f"cycle {i}: the kernel exited with status {code}")
        finally:
            kc.stop_channels()
            if km.is_alive():
                km.shutdown_kernel(now=True)
                problems.append(f"cycle {i}: the kernel did not exit after shutdown_request")
    print(f"cycles: {n} start/interrupt/shutdown cycles in {time.time() - t0:.0f} s, "
          f"{len(problems)} problems")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=10000)
    ap.add_argument("--cycles", type=int, default=100)
    args = ap.parse_args()
    mtkernel.setup()
    print(f"soak: kernel {mtkernel.kernel_bin()}")
    problems = session(args.requests) + cycles(args.cycles)
    for p in problems:
        print("FAIL:", p)
    print("soak:", "FAILED" if problems else "passed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
