"""Process life: many start/shutdown cycles, the JPY_PARENT_PID watchdog, bad connection files,
the ipc transport, and the command line (--version, --help, run FILE.mt)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

import pytest
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.connect import write_connection_file

import mtkernel
from mtkernel import execute, kernel_process

CYCLES = int(os.environ.get("MT_PROTOCOL_CYCLES", "100"))


# --- start / shutdown cycles -------------------------------------------------------------------


@pytest.mark.slow
def test_start_shutdown_cycles():
    """CYCLES kernels started and shut down gracefully, one after another: every one answers
    kernel_info and exits with status 0 (no crash at exit, no kill after the grace period)."""
    codes = []
    t0 = time.monotonic()
    for i in range(CYCLES):
        km, kc = mtkernel.start_kernel(mtkernel.KERNEL_NAME)
        proc = kernel_process(km)
        if i % 10 == 0:  # some cycles also run a cell
            assert execute(kc, f"{i} + 1").result_text() == str(i + 1)
        kc.stop_channels()
        km.shutdown_kernel(now=False)
        codes.append(proc.returncode)
        assert proc.returncode == 0, \
            f"cycle {i}: kernel exit status {proc.returncode}; all so far: {codes}"
    print(f"\n{CYCLES} start/shutdown cycles in {time.monotonic() - t0:.1f} s")


# --- launching by hand -------------------------------------------------------------------------


def _connection_file(tmp_path, **kw):
    path = str(tmp_path / "conn.json")
    fname, info = write_connection_file(path, **kw)
    return fname, info


def _launch(argv, env_extra=None, **kw):
    env = dict(os.environ)
    env.pop("JPY_PARENT_PID", None)
    if env_extra:
        env.update(env_extra)
    return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, **kw)


def _client(fname):
    kc = BlockingKernelClient(connection_file=fname)
    kc.load_connection_file()
    kc.start_channels()
    return kc


def _shut_down_cleanly(kc, kernel):
    """Asks the kernel to shut down and checks that it exits with status 0."""
    kc.shutdown()
    kernel.wait(timeout=5)
    assert kernel.returncode == 0


def _kill(proc):
    if proc.poll() is None:
        proc.kill()
    proc.communicate(timeout=10)


@pytest.mark.parametrize("busy", [False, True], ids=["idle", "busy"])
def test_parent_watchdog(tmp_path, busy):
    """The kernel exits within 3 s of its JPY_PARENT_PID process, also while a cell loops."""
    parent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    fname, _ = _connection_file(tmp_path)
    kernel = _launch(mtkernel.kernel_argv(fname), {"JPY_PARENT_PID": str(parent.pid)})
    kc = _client(fname)
    try:
        kc.wait_for_ready(timeout=mtkernel.START_TIMEOUT)
        assert kernel.poll() is None, "kernel exited while its parent was alive"
        if busy:
            mtkernel.wait_started(kc, kc.execute("while true: pass"))
        parent.kill()
        parent.wait()  # reap it, so the pid is really gone
        t0 = time.monotonic()
        try:
            kernel.wait(timeout=3.0)
        except subprocess.TimeoutExpired:
            raise AssertionError("kernel still running 3 s after its parent died") from None
        dt = time.monotonic() - t0
        print(f"\nwatchdog: kernel exited {dt:.2f} s after its parent, status {kernel.returncode}")
        assert kernel.returncode >= 0, f"kernel killed by signal {-kernel.returncode}"
    finally:
        kc.stop_channels()
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        _kill(kernel)


def test_no_watchdog_without_parent_pid(tmp_path):
    """Started by hand without JPY_PARENT_PID, the kernel runs until asked to stop."""
    fname, _ = _connection_file(tmp_path)
    kernel = _launch(mtkernel.kernel_argv(fname))
    kc = _client(fname)
    try:
        kc.wait_for_ready(timeout=mtkernel.START_TIMEOUT)
        assert execute(kc, "6*7").result_text() == "42"
        _shut_down_cleanly(kc, kernel)
    finally:
        kc.stop_channels()
        _kill(kernel)


def test_empty_key_disables_signing(tmp_path):
    """The messaging spec: an empty `key` in the connection file turns authentication off."""
    fname, info = _connection_file(tmp_path, key=b"")
    assert json.loads(open(fname).read())["key"] == ""
    kernel = _launch(mtkernel.kernel_argv(fname))
    kc = _client(fname)
    try:
        assert kc.session.key == b""
        kc.wait_for_ready(timeout=mtkernel.START_TIMEOUT)
        res = execute(kc, 'print("unsigned")')
        assert res.stream() == "unsigned\n"
        assert res.reply["header"]["msg_type"] == "execute_reply"
        _shut_down_cleanly(kc, kernel)
    finally:
        kc.stop_channels()
        _kill(kernel)


def test_sigterm_exits_cleanly(tmp_path):
    fname, _ = _connection_file(tmp_path)
    kernel = _launch(mtkernel.kernel_argv(fname))
    kc = _client(fname)
    try:
        kc.wait_for_ready(timeout=mtkernel.START_TIMEOUT)
        kernel.send_signal(signal.SIGTERM)
        try:
            kernel.wait(timeout=5)
        except subprocess.TimeoutExpired:
            raise AssertionError("kernel ignored SIGTERM for 5 s") from None
        # exit 0 after cleanup, or the default action (killed by SIGTERM); never a crash
        assert kernel.returncode in (0, -signal.SIGTERM, 128 + signal.SIGTERM), kernel.returncode
    finally:
        kc.stop_channels()
        _kill(kernel)


@pytest.mark.needs_binary
def test_bad_signature_scheme(tmp_path):
    fname, _ = _connection_file(tmp_path)
    info = json.loads(open(fname).read())
    info["signature_scheme"] = "hmac-md5"
    with open(fname, "w") as f:
        json.dump(info, f)
    proc = _launch(mtkernel.kernel_argv(fname))
    out, err = proc.communicate(timeout=10)
    assert proc.returncode not in (0, None), "kernel accepted signature_scheme hmac-md5"
    assert proc.returncode > 0, f"crashed with signal {-proc.returncode}"
    assert b"hmac-md5" in err or b"signature_scheme" in err, err.decode(errors="replace")


@pytest.mark.needs_binary
@pytest.mark.parametrize("what", ["missing", "not_json", "empty", "no_ports", "bad_transport"])
def test_bad_connection_file(tmp_path, what):
    fname = tmp_path / "conn.json"
    if what != "missing":
        good, _ = _connection_file(tmp_path)
        info = json.loads(open(good).read())
        if what == "not_json":
            fname.write_text("{this is not json")
        elif what == "empty":
            fname.write_text("")
        elif what == "no_ports":
            for k in ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port"):
                info.pop(k)
            fname.write_text(json.dumps(info))
        elif what == "bad_transport":
            info["transport"] = "carrier-pigeon"
            fname.write_text(json.dumps(info))
    proc = _launch(mtkernel.kernel_argv(fname))
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise AssertionError(f"kernel kept running with a {what} connection file") from None
    assert proc.returncode > 0, f"exit status {proc.returncode} for a {what} connection file"
    assert err.strip(), "no error message on stderr"


def _hold_port(port):
    """A listening TCP socket on 127.0.0.1:port, as a process that still has the port does."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", port))
    sock.listen(1)
    return sock


@pytest.mark.needs_binary
def test_port_freed_while_starting(tmp_path):
    """A port of the connection file still held when the kernel starts (a restart reusing the
    file while the old process lets go) is tried again: freed half a second later, the kernel
    comes up on it and answers."""
    fname, info = _connection_file(tmp_path)
    holder = _hold_port(info["iopub_port"])
    kernel = _launch(mtkernel.kernel_argv(fname))
    kc = None
    try:
        time.sleep(0.5)
        assert kernel.poll() is None, kernel.communicate()[1].decode(errors="replace")
        holder.close()
        kc = _client(fname)
        kc.wait_for_ready(timeout=mtkernel.START_TIMEOUT)
        assert execute(kc, "2 + 3").result_text() == "5"
        _shut_down_cleanly(kc, kernel)
    finally:
        holder.close()
        if kc:
            kc.stop_channels()
        _kill(kernel)


@pytest.mark.needs_binary
def test_port_held_for_good(tmp_path):
    """A port another process keeps: the kernel gives up after its retries, with the port and
    the reason on stderr and a failure status, not a hang."""
    fname, info = _connection_file(tmp_path)
    holder = _hold_port(info["shell_port"])
    try:
        proc = _launch(mtkernel.kernel_argv(fname))
        t0 = time.monotonic()
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - t0
    finally:
        holder.close()
    assert proc.returncode > 0, f"exit status {proc.returncode}"
    assert b"shell_port" in err and b"in use" in err, err.decode(errors="replace")
    assert 1.0 < took < 20, took


def test_ipc_transport(start_kernel, tmp_path):
    km, kc = start_kernel(mtkernel.KERNEL_NAME, km_transport="ipc",
                          km_ip=str(tmp_path / "mt-ipc"))
    assert km.transport == "ipc"
    res = execute(kc, 'print("over ipc")\n6*7')
    assert res.stream() == "over ipc\n"
    assert res.result_text() == "42"
    assert any(p.name.startswith("mt-ipc") for p in tmp_path.iterdir())
    proc = kernel_process(km)
    kc.stop_channels()
    km.shutdown_kernel(now=False)
    assert proc.returncode == 0


def test_two_clients_one_kernel(start_kernel):
    """A second client (like a console attached to a notebook's kernel) sees the same session
    and the first client's outputs on iopub."""
    from jupyter_client.session import Session

    km, kc = start_kernel(mtkernel.KERNEL_NAME)
    # its own session (and so its own socket identity), like a second frontend
    kc2 = km.client(session=Session(key=km.session.key,
                                    signature_scheme=km.session.signature_scheme))
    kc2.start_channels()
    try:
        kc2.wait_for_ready(timeout=mtkernel.START_TIMEOUT)
        mtkernel.drain_iopub(kc2)
        assert execute(kc, "shared_var = 42").status == "ok"
        res = execute(kc2, "shared_var")
        assert res.result_text() == "42"
        # kc saw kc2's execution on iopub too
        others: list = []
        msg_id = kc.execute("1")
        mtkernel.collect_iopub(kc, msg_id, others=others)
        assert any(m["parent_header"].get("msg_id") == res.msg_id for m in others)
    finally:
        kc2.stop_channels()


# --- command line ------------------------------------------------------------------------------


def _run_bin(*args, timeout=30, **kw):
    return subprocess.run([str(mtkernel.kernel_bin()), *args], capture_output=True, text=True,
                          timeout=timeout, **kw)


def _project_version() -> str:
    text = (mtkernel.REPO / "CMakeLists.txt").read_text()
    m = re.search(r"project\(\s*\w+\s+VERSION\s+([0-9.]+)", text)
    assert m, "no project VERSION in CMakeLists.txt"
    return m.group(1)


@pytest.mark.needs_binary
def test_cli_version():
    p = _run_bin("--version")
    assert p.returncode == 0, p.stderr
    assert _project_version() in p.stdout, p.stdout


@pytest.mark.needs_binary
def test_cli_help():
    p = _run_bin("--help")
    assert p.returncode == 0, p.stderr
    for word in ("install", "run", "-f"):
        assert word in p.stdout, f"--help does not mention {word!r}:\n{p.stdout}"


@pytest.mark.needs_binary
def test_cli_unknown_option():
    p = _run_bin("--no-such-option")
    assert p.returncode != 0
    assert p.stderr.strip()


@pytest.mark.needs_binary
def test_cli_run_file(tmp_path):
    f = tmp_path / "prog.mt"
    f.write_text('x = 6\nprint("hello from run")\nfor i in range(3):\n    print(i * x)\n')
    p = _run_bin("run", str(f))
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[:4] == ["hello from run", "0", "6", "12"], p.stdout


@pytest.mark.needs_binary
def test_cli_run_file_error(tmp_path):
    f = tmp_path / "bad.mt"
    f.write_text('print("before")\n1/0\nprint("after")\n')
    p = _run_bin("run", str(f))
    assert p.returncode != 0
    assert "before" in p.stdout
    assert "after" not in p.stdout
    assert "ZeroDivisionError" in p.stderr, p.stderr


@pytest.mark.needs_binary
def test_cli_run_missing_file(tmp_path):
    p = _run_bin("run", str(tmp_path / "nope.mt"))
    assert p.returncode != 0
    assert p.stderr.strip()


@pytest.mark.needs_binary
def test_cli_install_spec(tmp_path):
    p = _run_bin("install", "--prefix", str(tmp_path), "--name", "mt-x",
                 "--display-name", "MT X")
    assert p.returncode == 0, p.stderr
    d = tmp_path / "share" / "jupyter" / "kernels" / "mt-x"
    spec = json.loads((d / "kernel.json").read_text())
    assert os.path.realpath(spec["argv"][0]) == os.path.realpath(mtkernel.kernel_bin()), spec["argv"]
    assert os.path.isabs(spec["argv"][0])
    assert spec["argv"][1:] == ["-f", "{connection_file}"]
    assert spec["display_name"] == "MT X"
    assert spec["language"] == "minitorch"
    assert spec["interrupt_mode"] == "signal"
    # OpenMP's idle threads spin briefly, then sleep: with libgomp's default (300,000 spins) the
    # kernels of a class sharing a machine took their CPUs from each other (docs/ARCHITECTURE.md)
    assert spec["env"] == {"GOMP_SPINCOUNT": "1000"}
    assert (d / "logo-64x64.png").is_file() and (d / "logo-32x32.png").is_file()
    default = mtkernel.kernel_spec()
    assert default["display_name"] == "MiniTorch"
