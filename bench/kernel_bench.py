#!/usr/bin/env python3
"""kernel_bench.py — minitorch-kernel against ipykernel, measured in one run on one machine.

    .venv/bin/python bench/kernel_bench.py --kernel build/minitorch-kernel [--n 200]
        [--executes 1000] [--starts 10] [--rounds 1] [--code 1] [--json OUT] [--no-ipykernel]

--kernel may be given more than once, as PATH or LABEL=PATH (two builds of minitorch-kernel,
say before=... after=...); --rounds R measures every kernel R times, alternating between them
in each round (the order reversed every other round), and reports the median over the rounds
with their min–max, so that the drift of a shared machine falls on every column alike.

For each kernel, through jupyter_client (what every frontend uses):
  start   KernelManager.start_kernel() -> first kernel_info_reply on shell, median of --starts
          fresh kernels (the client's ZeroMQ reconnect interval is set to 1 ms for both kernels,
          so the time is not rounded up to libzmq's default 100 ms retry)
  rtt     execute_request of a trivial cell ("1") -> execute_reply and status idle with that
          parent on iopub; median and p99 over --n, after 20 warm-up executes
  rss     VmRSS of the kernel process itself (/proc/PID/status of km.provisioner.process.pid)
          after start, and after --executes more executes of --code; growth = the difference;
          after start also its parts (RssAnon: heap, stacks; RssFile: mapped library pages)
Prints a Markdown table (metric | one column per kernel | ratio | target | met?) and machine
information. The peer is ipykernel from this Python (installed with `python -m ipykernel
install --prefix TMP --name bench-ipykernel` into a temp JUPYTER_PATH entry). This is a
benchmark, not a test: it exits 0 whatever it measures (2 only on bad arguments).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from queue import Empty

import psutil
import zmq
from jupyter_client.manager import KernelManager

MT_NAME = "bench-minitorch"
IPK_NAME = "bench-ipykernel"

MB = 1e6 / 2**20  # one (decimal) megabyte in MiB: RSS is read in MiB, targets are in MB

TARGETS = {  # metric -> limit for minitorch; "met" means value <= limit
    "start_ms": 50.0,
    "rtt_median_ms": 1.0,
    "raw_rtt_median_ms": 1.0,
    "rss_start_mb": 9 * MB,
    "rss_after_mb": 9.5 * MB,
    "rss_growth_mb": 1 * MB,
}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def percentile(xs: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    s = sorted(xs)
    if not s:
        return float("nan")
    k = max(0, min(len(s) - 1, int(round(q / 100 * len(s) + 0.5)) - 1))
    return s[k]


def machine_info() -> dict:
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {
        "cpu": cpu,
        "nproc": usable,
        "cpu_count": os.cpu_count(),
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "os": platform.platform(),
        "python": platform.python_version(),
        "pyzmq": zmq.__version__,
        "libzmq": zmq.zmq_version(),
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
    }


def install_specs(prefix: Path, kernels: list[tuple[str, Path]],
                  with_ipykernel: bool) -> dict[str, str]:
    """Installs the kernelspecs into prefix; returns {label: spec name}."""
    specs = {}
    for label, kernel in kernels:
        name = MT_NAME if len(kernels) == 1 else f"{MT_NAME}-{label}"
        p = subprocess.run([str(kernel), "install", "--prefix", str(prefix), "--name", name],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            log(f"{label} install failed ({p.returncode}): {p.stderr.strip()}")
        else:
            specs[label] = name
    if with_ipykernel:
        p = subprocess.run([sys.executable, "-m", "ipykernel", "install", "--prefix", str(prefix),
                            "--name", IPK_NAME], capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            log(f"ipykernel install failed ({p.returncode}): {p.stderr.strip()}")
        else:
            specs["ipykernel"] = IPK_NAME
    return specs


class Kernel:
    """One running kernel with a client on a context whose sockets reconnect every 1 ms."""

    def __init__(self, spec: str, ctx: zmq.Context):
        self.km = KernelManager(kernel_name=spec)
        self.t_start = time.perf_counter()
        # stderr of the kernels would clutter the table; keep it for failures
        self.err = tempfile.TemporaryFile()
        self.km.start_kernel(stderr=self.err)
        self.kc = self.km.client(context=ctx)
        self.kc.start_channels(hb=False)

    @property
    def pid(self) -> int:
        return self.km.provisioner.process.pid

    def first_kernel_info(self, timeout: float = 60.0) -> float:
        """Seconds from start_kernel() to the first kernel_info_reply."""
        msg_id = self.kc.kernel_info()
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise RuntimeError(f"no kernel_info_reply within {timeout} s")
            try:
                m = self.kc.get_shell_msg(timeout=min(left, 1.0))
            except Empty:
                if not self.km.is_alive():
                    raise RuntimeError("kernel died during start: " + self.stderr()) from None
                continue
            if m["parent_header"].get("msg_id") == msg_id:
                return time.perf_counter() - self.t_start

    def settle(self) -> None:
        """Waits for idle of a kernel_info, so iopub is connected, then drains it."""
        msg_id = self.kc.kernel_info()
        deadline = time.perf_counter() + 30
        got_reply = got_idle = False
        while not (got_reply and got_idle):
            if time.perf_counter() > deadline:
                raise RuntimeError("kernel did not settle (no idle on iopub for kernel_info)")
            try:
                m = self.kc.get_shell_msg(timeout=0.05)
                got_reply |= m["parent_header"].get("msg_id") == msg_id
            except Empty:
                pass
            try:
                while True:
                    m = self.kc.get_iopub_msg(timeout=0.01)
                    if (m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status"
                            and m["content"]["execution_state"] == "idle"):
                        got_idle = True
            except Empty:
                pass

    def execute(self, code: str, timeout: float = 30.0) -> float:
        """Seconds from sending execute_request to having both its reply and its idle."""
        t0 = time.perf_counter()
        msg_id = self.kc.execute(code)
        got_reply = got_idle = False
        deadline = t0 + timeout
        while not got_reply:
            m = self.kc.get_shell_msg(timeout=max(0.0, deadline - time.perf_counter()))
            if m["parent_header"].get("msg_id") == msg_id:
                got_reply = True
                if m["content"]["status"] != "ok":
                    raise RuntimeError(f"execute of {code!r} failed: {m['content']}")
        while not got_idle:
            m = self.kc.get_iopub_msg(timeout=max(0.0, deadline - time.perf_counter()))
            if (m["parent_header"].get("msg_id") == msg_id and m["msg_type"] == "status"
                    and m["content"]["execution_state"] == "idle"):
                got_idle = True
        return time.perf_counter() - t0

    def raw_rtts(self, code: str, n: int, warmup: int = 20) -> list[float]:
        """Round trips measured with bare pyzmq sockets: requests are built and signed before
        the clock starts and replies are matched on raw bytes, so almost all of the time is the
        kernel's (jupyter_client's Python JSON/HMAC work is left out)."""
        from jupyter_client.session import Session

        info = self.km.get_connection_info()
        sess = Session(key=info["key"], signature_scheme=info["signature_scheme"],
                       username="bench")
        ctx = self.kc.context
        dealer = ctx.socket(zmq.DEALER)
        sub = ctx.socket(zmq.SUB)
        try:
            dealer.connect(self.km._make_url("shell"))
            sub.setsockopt(zmq.SUBSCRIBE, b"")
            sub.connect(self.km._make_url("iopub"))

            def build(c):
                msg = sess.msg("execute_request", content={
                    "code": c, "silent": False, "store_history": True,
                    "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
                return msg["header"]["msg_id"].encode(), sess.serialize(msg)

            poller = zmq.Poller()
            poller.register(dealer, zmq.POLLIN)
            poller.register(sub, zmq.POLLIN)

            def is_ours(parts, idle: bool) -> bool:
                i = parts.index(b"<IDS|MSG>")
                return mid_now[0] in parts[i + 3] and (not idle or b'"idle"' in parts[i + 5])

            mid_now = [b""]

            def roundtrip(mid, frames, timeout_ms=30000):
                mid_now[0] = mid
                t0 = time.perf_counter()
                dealer.send_multipart(frames)
                got_reply = got_idle = False
                while not (got_reply and got_idle):
                    ready = dict(poller.poll(timeout_ms))
                    if not ready:
                        return None
                    if dealer in ready and is_ours(dealer.recv_multipart(), idle=False):
                        got_reply = True
                    if sub in ready and is_ours(sub.recv_multipart(), idle=True):
                        got_idle = True
                return time.perf_counter() - t0

            # the SUB is connected once an idle of ours arrives on it
            deadline = time.perf_counter() + 10
            while True:
                mid, frames = build(code)
                if roundtrip(mid, frames, timeout_ms=500) is not None:
                    break
                if time.perf_counter() > deadline:
                    raise RuntimeError("raw iopub subscription never saw an idle")
            msgs = [build(code) for _ in range(warmup + n)]
            out = []
            for j, (mid, frames) in enumerate(msgs):
                dt = roundtrip(mid, frames)
                if dt is None:
                    raise RuntimeError("raw round trip timed out")
                if j >= warmup:
                    out.append(dt)
            return out
        finally:
            dealer.close(0)
            sub.close(0)

    def status_mb(self, field: str = "VmRSS") -> float:
        """A memory field of /proc/PID/status (kB there), in MiB."""
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        raise RuntimeError(f"no {field} in /proc/{self.pid}/status")

    def rss_mb(self) -> float:
        return self.status_mb("VmRSS")

    def stderr(self) -> str:
        self.err.seek(0)
        return self.err.read().decode(errors="replace")[-2000:]

    def stop(self) -> int | None:
        proc = self.km.provisioner.process if self.km.provisioner else None
        try:
            self.kc.stop_channels()
            self.km.shutdown_kernel(now=False)
        except Exception as e:  # noqa: BLE001 - a benchmark reports, it does not fail
            log(f"shutdown failed: {e}")
            try:
                self.km.shutdown_kernel(now=True)
            except Exception:
                pass
        self.err.close()
        return proc.returncode if proc else None


def measure(label: str, spec: str, args, ctx: zmq.Context) -> dict:
    r: dict = {"spec": spec}
    starts = []
    for i in range(args.starts):
        k = Kernel(spec, ctx)
        try:
            starts.append(k.first_kernel_info())
        finally:
            code = k.stop()
            if code not in (0, None):
                r.setdefault("exit_codes", []).append(code)
        log(f"  {label} start {i + 1}/{args.starts}: {starts[-1] * 1000:.1f} ms")
    r["start_ms"] = statistics.median(starts) * 1000
    r["start_ms_min"] = min(starts) * 1000
    r["start_ms_max"] = max(starts) * 1000
    r["start_ms_all"] = [round(s * 1000, 2) for s in starts]

    k = Kernel(spec, ctx)
    try:
        k.first_kernel_info()
        k.settle()
        time.sleep(0.5)  # let lazy start-up work (imports, threads) finish before the RSS
        r["rss_start_mb"] = k.rss_mb()
        r["rss_anon_start_mb"] = k.status_mb("RssAnon")
        r["rss_file_start_mb"] = k.status_mb("RssFile")
        # RSS counts every shared-library page the kernel touched as its own; PSS shares them
        # out among the processes that map them, USS is what exiting the kernel would free.
        full = psutil.Process(k.pid).memory_full_info()
        r["pss_start_mb"] = full.pss / 2**20
        r["uss_start_mb"] = full.uss / 2**20
        for _ in range(20):
            k.execute(args.code)
        cpu0 = time.thread_time()
        rtts = [k.execute(args.code) for _ in range(args.n)]
        # CPU time the client's own thread spent per round trip (serialising, signing,
        # deserialising, date parsing). It runs in sequence with the round trip, so it is a floor
        # under it that no kernel can lower.
        r["client_cpu_ms"] = (time.thread_time() - cpu0) / args.n * 1000
        r["rtt_median_ms"] = statistics.median(rtts) * 1000
        r["rtt_p99_ms"] = percentile(rtts, 99) * 1000
        r["rtt_min_ms"] = min(rtts) * 1000
        r["rtt_p90_ms"] = percentile(rtts, 90) * 1000
        log(f"  {label} rtt median {r['rtt_median_ms']:.3f} ms, p99 {r['rtt_p99_ms']:.3f} ms")
        raw = k.raw_rtts(args.code, args.n)
        r["raw_rtt_median_ms"] = statistics.median(raw) * 1000
        r["raw_rtt_p99_ms"] = percentile(raw, 99) * 1000
        log(f"  {label} raw rtt median {r['raw_rtt_median_ms']:.3f} ms, "
            f"p99 {r['raw_rtt_p99_ms']:.3f} ms")
        t0 = time.perf_counter()
        for _ in range(args.executes):
            k.execute(args.code)
        r["executes_s"] = time.perf_counter() - t0
        time.sleep(0.2)
        r["rss_after_mb"] = k.rss_mb()
        r["rss_growth_mb"] = r["rss_after_mb"] - r["rss_start_mb"]
        r["threads"] = psutil.Process(k.pid).num_threads()
        log(f"  {label} rss {r['rss_start_mb']:.1f} -> {r['rss_after_mb']:.1f} MiB")
    finally:
        code = k.stop()
        if code not in (0, None):
            r.setdefault("exit_codes", []).append(code)
    return r


def fmt(v, digits=2) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def combine(rounds: list[dict]) -> dict:
    """One kernel's rounds into one result: each figure the median over the rounds, with
    "<key>_rounds" holding every round's value (the spread); the starts' lists are joined."""
    if len(rounds) == 1:
        return dict(rounds[0])
    out: dict = {"rounds": len(rounds)}
    for key in rounds[0]:
        vals = [r[key] for r in rounds if key in r]
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
            m = statistics.median(vals)
            ints = all(isinstance(v, int) for v in vals) and m == int(m)
            out[key] = int(m) if ints else m  # a thread count stays a count
            out[key + "_rounds"] = vals
        elif key.endswith("_all"):
            out[key] = [x for v in vals for x in v]
        else:
            out[key] = vals[-1]
    codes = [c for r in rounds for c in r.get("exit_codes", [])]  # only in rounds that had any
    if codes:
        out["exit_codes"] = codes
    out["start_ms_min"] = min(r["start_ms_min"] for r in rounds)
    out["start_ms_max"] = max(r["start_ms_max"] for r in rounds)
    return out


def cell(r: dict, key: str, digits: int) -> str:
    """A figure, and when there were several rounds the min–max of the rounds' figures."""
    if key not in r:
        return "—"
    spread = r.get(key + "_rounds")
    if spread and len(spread) > 1:
        return f"{fmt(r[key], digits)} ({fmt(min(spread), digits)}–{fmt(max(spread), digits)})"
    return fmt(r[key], digits)


def table(results: dict, args) -> str:
    labels = list(results)
    mts = [lb for lb in labels if lb != "ipykernel"]
    per = " per round" if args.rounds > 1 else ""
    rows = [
        ("start → kernel_info_reply, median of %d%s (ms)" % (args.starts, per), "start_ms", 1,
         "≤ 50 ms"),
        ("  start min–max, all starts (ms)", None, 1, ""),
        ("exec round trip `%s`, median of %d%s (ms)" % (args.code, args.n, per),
         "rtt_median_ms", 3, "≤ 1 ms"),
        ("exec round trip p99 (ms)", "rtt_p99_ms", 3, ""),
        ("  of which the client thread's own CPU time, mean (ms)", "client_cpu_ms", 3, ""),
        ("exec round trip, bare pyzmq client, median (ms)", "raw_rtt_median_ms", 3, "≤ 1 ms"),
        ("exec round trip, bare pyzmq client, p99 (ms)", "raw_rtt_p99_ms", 3, ""),
        ("RSS after start (MiB)", "rss_start_mb", 2, "≤ 9 MB"),
        ("  of which RssAnon / RssFile (MiB)", None, 2, ""),
        ("  PSS / USS after start (MiB)", None, 1, ""),
        ("RSS after %d executes (MiB)" % args.executes, "rss_after_mb", 2, "≤ 9.5 MB"),
        ("RSS growth (MiB)", "rss_growth_mb", 2, "≤ 1 MB"),
    ]
    pairs = {"  start": ("start_ms_min", "start_ms_max", "–"),
             "  of which": ("rss_anon_start_mb", "rss_file_start_mb", " / "),
             "  PSS": ("pss_start_mb", "uss_start_mb", " / ")}
    ratio_of = "ipykernel" in results and mts
    head = "| metric | " + " | ".join(labels) + " |"
    if ratio_of:
        head += f" ipykernel / {mts[-1]} |"
    head += " target | met? |"
    out = [head, "|---" * (head.count("|") - 1) + "|"]
    for name, key, digits, target in rows:
        if key is None:  # a pair of values in one cell
            lo, hi, sep = next(v for k, v in pairs.items() if name.startswith(k))
            cells = [f"{fmt(results[lb].get(lo), digits)}{sep}{fmt(results[lb].get(hi), digits)}"
                     if lo in results[lb] else "—" for lb in labels]
            out.append(f"| {name} | " + " | ".join(cells) + " |" + " |" * (3 if ratio_of else 2))
            continue
        cells = [cell(results[lb], key, digits) for lb in labels]
        line = f"| {name} | " + " | ".join(cells) + " |"
        if ratio_of:
            a, b = results[mts[-1]].get(key), results["ipykernel"].get(key)
            ok = isinstance(a, float) and isinstance(b, float) and a > 0
            line += f" {b / a:.1f}× |" if ok and key != "rss_growth_mb" else " |"
        met = []
        if key in TARGETS:
            for lb in mts:
                a = results[lb].get(key)
                met.append("—" if a is None else ("yes" if a <= TARGETS[key] else "**no**"))
        out.append(line + f" {target} | {' / '.join(met)} |")
    return "\n".join(out)


def parse_kernels(values: list[str]) -> list[tuple[str, Path]]:
    """--kernel values (PATH or LABEL=PATH) as (label, path); one plain PATH is "minitorch"."""
    out = []
    for i, v in enumerate(values):
        label, sep, path = v.partition("=")
        if not sep:
            label, path = ("minitorch" if len(values) == 1 else f"minitorch-{i + 1}"), v
        out.append((label, Path(path)))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_kernel = os.environ.get("MT_KERNEL_BIN", str(Path(__file__).resolve().parents[1]
                                                         / "build" / "minitorch-kernel"))
    ap.add_argument("--kernel", action="append", metavar="[LABEL=]PATH",
                    help="a minitorch-kernel binary, repeatable (default $MT_KERNEL_BIN or "
                         "build/minitorch-kernel)")
    ap.add_argument("--n", type=int, default=200, help="timed round trips (default 200)")
    ap.add_argument("--executes", type=int, default=1000,
                    help="executes between the two RSS readings (default 1000)")
    ap.add_argument("--starts", type=int, default=10, help="kernel starts timed (default 10)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="measure every kernel this many times, alternating (default 1)")
    ap.add_argument("--code", default="1", help="the trivial cell (default: 1)")
    ap.add_argument("--json", type=Path, help="also write the results as JSON here")
    ap.add_argument("--no-ipykernel", action="store_true", help="skip the ipykernel peer")
    args = ap.parse_args(argv)
    if args.n < 1 or args.starts < 1 or args.executes < 0 or args.rounds < 1:
        ap.error("--n, --starts and --rounds must be >= 1, --executes >= 0")

    kernels = []
    for label, path in parse_kernels(args.kernel or [default_kernel]):
        path = path.resolve()
        if label == "ipykernel":
            ap.error("the label ipykernel is the peer's")
        if not (path.is_file() and os.access(path, os.X_OK)):
            log(f"kernel binary not found: {path}; left out")
            continue
        kernels.append((label, path))

    prefix = Path(tempfile.mkdtemp(prefix="mt-bench-"))
    ctx = zmq.Context()
    ctx.setsockopt(zmq.RECONNECT_IVL, 1)
    ctx.setsockopt(zmq.LINGER, 0)
    rounds: dict[str, list[dict]] = {}
    errors: dict = {}
    try:
        specs = install_specs(prefix, kernels, not args.no_ipykernel)
        jdir = str(prefix / "share" / "jupyter")
        os.environ["JUPYTER_PATH"] = jdir + (os.pathsep + os.environ["JUPYTER_PATH"]
                                             if os.environ.get("JUPYTER_PATH") else "")
        order = list(specs.items())
        for rnd in range(args.rounds):
            for label, spec in (order if rnd % 2 == 0 else order[::-1]):
                if label in errors:
                    continue
                log(f"round {rnd + 1}/{args.rounds}: measuring {label} ({spec})")
                try:
                    rounds.setdefault(label, []).append(measure(label, spec, args, ctx))
                except Exception as e:  # noqa: BLE001 - report and go on with the peer
                    errors[label] = f"{type(e).__name__}: {e}"
                    log(f"  {label} failed: {errors[label]}")
    finally:
        ctx.destroy(linger=0)
        shutil.rmtree(prefix, ignore_errors=True)
    results = {lb: combine(rs) for lb, rs in rounds.items()}

    info = machine_info()
    print("## minitorch-kernel vs ipykernel\n")
    print(table(results, args))
    print()
    print(f"Machine: {info['cpu']}, {info['nproc']} usable CPUs ({info['cpu_count']} online), "
          f"{info['memory_gb']} GB RAM; {info['os']}; Python {info['python']}, pyzmq "
          f"{info['pyzmq']}, libzmq {info['libzmq']}; {info['date']}.")
    names = "; ".join(f"{lb}: {p}" for lb, p in kernels) or "(none)"
    print(f"minitorch binaries: {names}. ipykernel: {sys.executable} -m ipykernel_launcher. "
          "RSS = VmRSS of the kernel process; the shared machine is noisy, compare the columns "
          "of one run." + (f" Figures: median over {args.rounds} rounds (min–max of the rounds)."
                           if args.rounds > 1 else ""))
    for label, r in results.items():
        if r.get("exit_codes"):
            print(f"\nwarning: {label} exited with status {r['exit_codes']} on shutdown")
        if "threads" in r:
            print(f"{label}: {r['threads']} threads; {args.executes} executes took "
                  f"{r['executes_s']:.2f} s")
    for label, e in errors.items():
        print(f"\n**{label} failed**: {e}")

    if args.json:
        doc = {"machine": info, "params": {"n": args.n, "executes": args.executes,
                                           "starts": args.starts, "rounds": args.rounds,
                                           "code": args.code,
                                           "kernels": {lb: str(p) for lb, p in kernels}},
               "targets": TARGETS, "results": results, "rounds": rounds, "errors": errors}
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
