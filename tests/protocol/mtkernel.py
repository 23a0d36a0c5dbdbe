"""mtkernel.py — shared set-up and helpers for the protocol test suites of minitorch-kernel.

Both suites in this directory use it: the jupyter_kernel_test suite (`jkt_minitorch.py`, run with
`python -m unittest discover -s tests/protocol -p 'jkt_*.py'`) and the pytest suite
(`conftest.py` + `test_*.py`).

What it does, once per process (`setup()`):
  * finds the kernel binary: $MT_KERNEL_BIN, else <repo>/build/minitorch-kernel;
  * runs `minitorch-kernel install --prefix TMP --name minitorch` into a fresh temp dir, adds a
    second spec `minitorch-message` (the same kernel.json with "interrupt_mode": "message"), and
    prepends TMP/share/jupyter to $JUPYTER_PATH so jupyter_client's KernelSpecManager finds these
    two specs before any installed elsewhere.
The environment is otherwise inherited untouched (a sanitizer run sets ASAN_OPTIONS etc. and the
kernel processes must see them).

Harness self-test: with MT_PROTOCOL_SELFTEST=ipykernel the two specs start ipykernel instead
(with a few shims so that `sleep`, `warn`, `true`, `display(..., display_id=)`, `help` ... exist).
This only checks that the *tests* are sound against a reference kernel; tests that need the
minitorch binary itself (CLI, connection-file errors) are skipped in that mode, and tests of
minitorch-only behaviour (language_info, completions, ...) are expected to fail there.

The helpers (`start_kernel`, `execute`, `collect_iopub`, `wait_for`, ...) put a timeout on every
read, so a kernel that does not answer fails the test instead of hanging it.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from queue import Empty
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[2]
SELFTEST = os.environ.get("MT_PROTOCOL_SELFTEST", "") == "ipykernel"

KERNEL_NAME = "minitorch"  # interrupt_mode "signal" (the installed default)
KERNEL_NAME_MESSAGE = "minitorch-message"  # interrupt_mode "message"

TIMEOUT = float(os.environ.get("MT_PROTOCOL_TIMEOUT", "10"))  # generic per-message timeout, s
START_TIMEOUT = float(os.environ.get("MT_PROTOCOL_START_TIMEOUT", "30"))

_state: dict[str, Any] = {}


class SetupError(RuntimeError):
    pass


def timing_lines(stream: str) -> str:
    """A timing's output without the busy-machine note (kernel/lib/busy.h), which depends on
    what else the machine runs: tests/kernel/lib/test_busy.c checks it."""
    return "".join(line for line in stream.splitlines(keepends=True)
                   if not line.startswith("note: "))


def kernel_bin() -> Path:
    """Absolute path of the kernel binary under test."""
    env = os.environ.get("MT_KERNEL_BIN")
    if env:
        return Path(env).resolve()
    return REPO / "build" / "minitorch-kernel"


def have_kernel_bin() -> bool:
    b = kernel_bin()
    return b.is_file() and os.access(b, os.X_OK)


_SELFTEST_SHIM = r'''
# Shims that make ipykernel understand the bits of the MiniTorch language the tests use.
import sys as _sys, time as _time, builtins as _builtins
from IPython.display import display, update_display, clear_output
true, false, none = True, False, None
def sleep(s):
    _time.sleep(s)
def warn(*a):
    print(*a, file=_sys.stderr)
def input(prompt="", password=False):
    if password:
        import getpass
        return getpass.getpass(prompt)
    return _builtins.input(prompt)
def help(obj):
    get_ipython().payload_manager.write_payload(
        {"source": "page", "data": {"text/plain": "help on " + getattr(obj, "__name__", "?")},
         "start": 0})
'''


def _install_specs(prefix: Path) -> Path:
    kernels = prefix / "share" / "jupyter" / "kernels"
    if SELFTEST:
        d = kernels / KERNEL_NAME
        d.mkdir(parents=True)
        shim = prefix / "selftest_shim.py"
        shim.write_text(_SELFTEST_SHIM)
        spec = {
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}",
                     f"--IPKernelApp.exec_files={shim}", "--HistoryManager.hist_file=:memory:"],
            "display_name": "MiniTorch (ipykernel self-test)",
            "language": "minitorch",
            "interrupt_mode": "signal",
        }
        (d / "kernel.json").write_text(json.dumps(spec, indent=1))
    else:
        binary = kernel_bin()
        if not have_kernel_bin():
            raise SetupError(
                f"kernel binary not found or not executable: {binary} "
                "(build it, or set MT_KERNEL_BIN to its absolute path)")
        proc = subprocess.run(
            [str(binary), "install", "--prefix", str(prefix), "--name", KERNEL_NAME],
            capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            raise SetupError(
                f"`{binary} install --prefix {prefix} --name {KERNEL_NAME}` exited "
                f"{proc.returncode}\nstdout: {proc.stdout}\nstderr: {proc.stderr}")
    spec_path = kernels / KERNEL_NAME / "kernel.json"
    if not spec_path.is_file():
        raise SetupError(f"install did not write {spec_path}")
    spec = json.loads(spec_path.read_text())
    msg_dir = kernels / KERNEL_NAME_MESSAGE
    msg_dir.mkdir(parents=True, exist_ok=True)
    msg_spec = dict(spec)
    msg_spec["interrupt_mode"] = "message"
    msg_spec["display_name"] = spec.get("display_name", "MiniTorch") + " (message interrupt)"
    (msg_dir / "kernel.json").write_text(json.dumps(msg_spec, indent=1))
    return kernels


def setup() -> Path:
    """Installs the kernelspecs once per process; returns the temp prefix. Raises SetupError."""
    if "prefix" in _state:
        return _state["prefix"]
    if "error" in _state:
        raise _state["error"]
    prefix = Path(tempfile.mkdtemp(prefix="mt-protocol-"))
    atexit.register(shutil.rmtree, prefix, ignore_errors=True)
    try:
        kernels = _install_specs(prefix)
    except (SetupError, OSError, subprocess.SubprocessError) as e:
        err = e if isinstance(e, SetupError) else SetupError(str(e))
        _state["error"] = err
        raise err from None
    jdir = str(prefix / "share" / "jupyter")
    old = os.environ.get("JUPYTER_PATH", "")
    os.environ["JUPYTER_PATH"] = jdir + (os.pathsep + old if old else "")
    _state["prefix"] = prefix
    _state["kernels"] = kernels
    return prefix


def kernelspec_path(name: str = KERNEL_NAME) -> Path:
    setup()
    return _state["kernels"] / name / "kernel.json"


def kernel_spec(name: str = KERNEL_NAME) -> dict[str, Any]:
    return json.loads(kernelspec_path(name).read_text())


def kernel_argv(connection_file: str | os.PathLike[str], name: str = KERNEL_NAME) -> list[str]:
    """The command line the kernelspec would run for this connection file."""
    return [a.replace("{connection_file}", str(connection_file)) for a in kernel_spec(name)["argv"]]


# --------------------------------------------------------------------------------------------
# starting kernels


def start_kernel(name: str = KERNEL_NAME, startup_timeout: float | None = None, **kw: Any):
    """Starts a kernel from spec `name`, returns (km, kc) with channels started and the kernel
    ready (kernel_info answered, iopub flushed). Extra kwargs go to km.start_kernel (e.g.
    stderr=file). KernelManager keyword `transport`/`ip` may be given as km_transport/km_ip."""
    from jupyter_client.manager import KernelManager

    setup()
    km_kwargs = {}
    for k in ("transport", "ip"):
        if "km_" + k in kw:
            km_kwargs[k] = kw.pop("km_" + k)
    km = KernelManager(kernel_name=name, **km_kwargs)
    km.start_kernel(**kw)
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=startup_timeout or START_TIMEOUT)
    except RuntimeError:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        raise
    return km, kc


def stop_kernel(km, kc) -> None:
    """Stops channels and shuts the kernel down (gracefully, then by force), ignoring errors."""
    try:
        kc.stop_channels()
    except Exception:
        pass
    try:
        if km.has_kernel:
            km.shutdown_kernel(now=False)
    except Exception:
        try:
            km.shutdown_kernel(now=True)
        except Exception:
            pass


def kernel_process(km):
    """The subprocess.Popen of the kernel (None once jupyter_client has reaped it)."""
    prov = getattr(km, "provisioner", None)
    return getattr(prov, "process", None)


def kernel_pid(km) -> int:
    proc = kernel_process(km)
    assert proc is not None, "kernel process is gone"
    return proc.pid


# --------------------------------------------------------------------------------------------
# reading messages


def wait_for(cond: Callable[[], Any], timeout: float, interval: float = 0.01) -> Any:
    """Polls cond() until it returns a truthy value (returned) or timeout passes (returns the
    last falsy value)."""
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v or time.monotonic() >= deadline:
            return v
        time.sleep(interval)


def parent_id(msg: dict[str, Any]) -> str | None:
    return (msg.get("parent_header") or {}).get("msg_id")


def get_reply(kc, msg_id: str, timeout: float = TIMEOUT, channel: str = "shell",
              others: list | None = None) -> dict[str, Any]:
    """The reply to msg_id on shell/control; other messages read meanwhile go to `others` (or are
    dropped). Raises AssertionError on timeout."""
    ch = kc.shell_channel if channel == "shell" else kc.control_channel
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {channel} reply to {msg_id} within {timeout} s")
        try:
            msg = ch.get_msg(timeout=left)
        except Empty:
            continue
        if parent_id(msg) == msg_id:
            return msg
        if others is not None:
            others.append(msg)


def collect_iopub(kc, msg_id: str, timeout: float = TIMEOUT,
                  others: list | None = None) -> list[dict[str, Any]]:
    """All iopub messages whose parent is msg_id, up to and including `status: idle`.
    Messages of other parents go to `others`. Raises AssertionError on timeout."""
    out: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no idle for {msg_id} within {timeout} s; got "
                                 f"{summarize(out)}")
        try:
            msg = kc.get_iopub_msg(timeout=left)
        except Empty:
            continue
        if parent_id(msg) != msg_id:
            if others is not None:
                others.append(msg)
            continue
        out.append(msg)
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return out


def summarize(msgs: list[dict[str, Any]]) -> str:
    """A short description of a list of messages: counts per type and the last five."""
    counts: dict[str, int] = {}
    for m in msgs:
        counts[m["msg_type"]] = counts.get(m["msg_type"], 0) + 1
    tail = [m["msg_type"] for m in msgs[-5:]]
    return f"{len(msgs)} messages {counts}, last {tail}"


def drain_iopub(kc, quiet: float = 0.05) -> list[dict[str, Any]]:
    """Reads iopub until it has been quiet for `quiet` seconds."""
    got = []
    while True:
        try:
            got.append(kc.get_iopub_msg(timeout=quiet))
        except Empty:
            return got


class Result:
    """What one execute_request produced: reply and the iopub messages with its parent."""

    def __init__(self, msg_id: str, reply: dict[str, Any], iopub: list[dict[str, Any]]):
        self.msg_id = msg_id
        self.reply = reply
        self.iopub = iopub

    @property
    def content(self) -> dict[str, Any]:
        return self.reply["content"]

    @property
    def status(self) -> str:
        return self.reply["content"]["status"]

    def of_type(self, *types: str) -> list[dict[str, Any]]:
        return [m for m in self.iopub if m["msg_type"] in types]

    @property
    def outputs(self) -> list[dict[str, Any]]:
        """iopub messages except status and execute_input."""
        return [m for m in self.iopub if m["msg_type"] not in ("status", "execute_input")]

    def stream(self, name: str = "stdout") -> str:
        return "".join(m["content"]["text"] for m in self.iopub
                       if m["msg_type"] == "stream" and m["content"]["name"] == name)

    def result_text(self) -> str | None:
        res = self.of_type("execute_result")
        if not res:
            return None
        return res[-1]["content"]["data"].get("text/plain")

    def error(self) -> dict[str, Any] | None:
        errs = self.of_type("error")
        return errs[-1]["content"] if errs else None

    def __repr__(self) -> str:
        return (f"Result(status={self.status!r}, reply={self.content!r}, "
                f"iopub={[(m['msg_type'], m['content']) for m in self.iopub]!r})")


def execute(kc, code: str, timeout: float = TIMEOUT, **kw: Any) -> Result:
    """Sends an execute_request, waits for its reply and for idle with its parent."""
    msg_id = kc.execute(code, **kw)
    return finish(kc, msg_id, timeout)


def finish(kc, msg_id: str, timeout: float = TIMEOUT) -> Result:
    reply = get_reply(kc, msg_id, timeout)
    iopub = collect_iopub(kc, msg_id, timeout)
    return Result(msg_id, reply, iopub)


def wait_started(kc, msg_id: str, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
    """Waits until the kernel has begun executing msg_id (busy + execute_input on iopub).
    Returns the messages read."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"execution of {msg_id} did not start within {timeout} s: {got}")
        try:
            msg = kc.get_iopub_msg(timeout=left)
        except Empty:
            continue
        if parent_id(msg) != msg_id:
            continue
        got.append(msg)
        if msg["msg_type"] == "execute_input":
            return got


def send_shell(kc, msg_type: str, content: dict[str, Any]) -> str:
    msg = kc.session.msg(msg_type, content)
    kc.shell_channel.send(msg)
    return msg["header"]["msg_id"]


def send_control(kc, msg_type: str, content: dict[str, Any]) -> str:
    msg = kc.session.msg(msg_type, content)
    kc.control_channel.send(msg)
    return msg["header"]["msg_id"]
