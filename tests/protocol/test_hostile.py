"""Requests a careless or hostile client sends (issue 23): a NUL in a string, content of the wrong
type, a late input_reply, a closed stderr pipe, a flood of garbage, cells past the source limit,
history that outgrows its bound, requests on the control channel, memory exhaustion.

The rule under test: a correctly signed request is always answered (an error reply when it cannot
be used), busy and idle go out around it, and the kernel lives on and serves the next one."""

from __future__ import annotations

import json
import os
import resource
import time
import uuid

import pytest
import zmq
from jupyter_client.session import Session

import mtkernel
from mtkernel import (TIMEOUT, collect_iopub, execute, finish, get_reply, send_control,
                      send_shell, wait_for, wait_started)

DELIM = b"<IDS|MSG>"
MAX_SOURCE = 4 << 20  # JP_MAX_SOURCE_BYTES


def _answered(kc, msg_id, channel="shell"):
    """The reply to msg_id and its iopub messages (busy ... idle)."""
    reply = get_reply(kc, msg_id, channel=channel)
    iopub = collect_iopub(kc, msg_id)
    states = [m["content"]["execution_state"] for m in iopub if m["msg_type"] == "status"]
    assert states[0] == "busy" and states[-1] == "idle", states
    return reply, iopub


# --- defect 2: NUL characters and content of the wrong type ----------------------------------


@pytest.mark.needs_binary
def test_nul_in_code_is_a_syntax_error(kc):
    msg_id = kc.execute("x_nul = 1\n y = 2\x00 + 3")
    reply, iopub = _answered(kc, msg_id)
    c = reply["content"]
    assert c["status"] == "error", c
    assert c["ename"] == "SyntaxError"
    assert "null" in c["evalue"] and "line 2, column 7" in c["evalue"], c["evalue"]
    # the cell was not run, not even its first line, and is echoed whole
    echo = [m for m in iopub if m["msg_type"] == "execute_input"]
    assert echo and echo[0]["content"]["code"] == "x_nul = 1\n y = 2\x00 + 3"
    assert execute(kc, "x_nul").error()["ename"] == "NameError"


def test_nul_in_header_username_is_answered(kc):
    msg = kc.session.msg("execute_request", {"code": "6*7", "silent": False})
    msg["header"]["username"] = "a\x00b"
    kc.shell_channel.send(msg)
    reply, iopub = _answered(kc, msg["header"]["msg_id"])
    assert reply["content"]["status"] == "ok"
    assert reply["parent_header"]["username"] == "a\x00b"
    assert any(m["msg_type"] == "execute_result" for m in iopub)


@pytest.mark.needs_binary
@pytest.mark.parametrize("msg_type", ["complete_request", "inspect_request",
                                      "is_complete_request"])
@pytest.mark.parametrize("code", [5, None, "ab\x00c"], ids=["int", "null", "nul"])
def test_code_requests_with_unusable_code_get_error_replies(kc, msg_type, code):
    msg_id = send_shell(kc, msg_type, {"code": code, "cursor_pos": 1})
    reply, _ = _answered(kc, msg_id)
    assert reply["msg_type"] == msg_type.replace("_request", "_reply")
    assert reply["content"]["status"] == "error", reply["content"]
    assert reply["content"]["ename"] in ("TypeError", "SyntaxError")


@pytest.mark.needs_binary
def test_user_expression_with_nul_gets_an_error(kc):
    res = execute(kc, "1", user_expressions={"a": "1+1", "b": "2\x00"})
    ue = res.content["user_expressions"]
    assert ue["a"]["status"] == "ok"
    assert ue["b"]["status"] == "error" and ue["b"]["ename"] == "SyntaxError"


def _raw_dealer(km):
    ctx = zmq.Context.instance()
    s = ctx.socket(zmq.DEALER)
    s.linger = 0
    s.connect(km._make_url("shell"))
    return s


def _session(km):
    info = km.get_connection_info()
    key = info["key"] if isinstance(info["key"], bytes) else info["key"].encode()
    return Session(key=key, signature_scheme=info["signature_scheme"], username="hostile")


@pytest.mark.needs_binary
@pytest.mark.parametrize("frame,content", [
    (5, b"[]"), (5, b'{"code": "1"'), (5, b'"text"'), (3, b"[1]"), (4, b"7")],
    ids=["content_array", "content_bad_json", "content_string", "parent_array",
         "metadata_number"])
def test_signed_request_with_unusable_frames_gets_an_error_reply(kernel, frame, content):
    """A correctly signed execute_request whose content (or parent, metadata) is not a JSON
    object is answered with an error reply and busy/idle, and nothing runs."""
    km, kc = kernel
    session = _session(km)
    msg = session.msg("execute_request", {"code": 'print("RAN")'})
    frames = session.serialize(msg)
    frames[frame] = content
    frames[1] = session.sign(frames[2:6])
    sock = _raw_dealer(km)
    try:
        sock.send_multipart(frames)
        assert sock.poll(int(TIMEOUT * 1000)), "no reply"
        _, parts = session.feed_identities(sock.recv_multipart())
        reply = session.deserialize(parts)
    finally:
        sock.close(0)
    assert reply["msg_type"] == "execute_reply"
    assert reply["parent_header"]["msg_id"] == msg["header"]["msg_id"]
    assert reply["content"]["status"] == "error"
    assert reply["content"]["ename"] == "ValueError"
    assert "not a JSON object" in reply["content"]["evalue"]
    iopub = collect_iopub(kc, msg["header"]["msg_id"])
    assert not any("RAN" in json.dumps(m["content"]) for m in iopub)


# --- defect 3: a late input_reply ------------------------------------------------------------


@pytest.mark.needs_binary
def test_late_input_reply_does_not_answer_the_next_input(start_kernel):
    km, kc = start_kernel(mtkernel.KERNEL_NAME_MESSAGE)
    first = kc.execute('v = input("first")', allow_stdin=True)
    req = kc.get_stdin_msg(timeout=TIMEOUT)
    assert req["content"]["prompt"] == "first"
    km.interrupt_kernel()
    assert get_reply(kc, first)["content"]["ename"] == "KeyboardInterrupt"
    collect_iopub(kc, first)
    # the frontend's answer to the interrupted request arrives late
    kc.input("STALE")
    time.sleep(0.3)
    second = kc.execute('p = input("password? ", password=true)\np', allow_stdin=True)
    req = kc.get_stdin_msg(timeout=TIMEOUT)
    assert req["content"]["prompt"] == "password? "
    assert req["parent_header"]["msg_id"] == second
    kc.input("fresh")
    res = finish(kc, second)
    assert res.result_text() == "'fresh'", res


@pytest.mark.needs_binary
def test_input_reply_to_another_request_is_ignored(start_kernel):
    """A reply whose parent is not the pending input_request does not answer it."""
    km, kc = start_kernel()
    msg_id = kc.execute('w = input("q")\nw', allow_stdin=True)
    kc.get_stdin_msg(timeout=TIMEOUT)
    wrong = kc.session.msg("input_reply", {"value": "WRONG"},
                           parent={"msg_id": str(uuid.uuid4()), "msg_type": "input_request"})
    kc.stdin_channel.send(wrong)
    time.sleep(0.3)
    kc.input("right")
    assert finish(kc, msg_id).result_text() == "'right'"


@pytest.mark.needs_binary
def test_input_reply_with_nul_is_an_error(start_kernel):
    km, kc = start_kernel()
    msg_id = kc.execute('z = input("q")', allow_stdin=True)
    kc.get_stdin_msg(timeout=TIMEOUT)
    kc.input("a\x00b")
    res = finish(kc, msg_id)
    assert res.status == "error", res
    assert "NUL" in res.content["evalue"], res.content
    assert execute(kc, "6*7").result_text() == "42"


# --- defect 4: SIGPIPE and the log of dropped messages ---------------------------------------


def _garbage(sock, n):
    for _ in range(n):
        sock.send_multipart([DELIM, b"0" * 64, b"{}", b"{}", b"{}", b"{}"])


@pytest.mark.needs_binary
def test_closed_stderr_pipe_does_not_kill_the_kernel(start_kernel):
    r, w = os.pipe()
    try:
        km, kc = start_kernel(stderr=w)
    finally:
        os.close(w)
    os.close(r)  # the reader is gone: the kernel's next log line meets a broken pipe
    sock = _raw_dealer(km)
    try:
        _garbage(sock, 3)
        time.sleep(0.5)
    finally:
        sock.close(0)
    proc = mtkernel.kernel_process(km)
    assert proc.poll() is None, f"kernel died (exit {proc.returncode})"
    assert execute(kc, "6*7").result_text() == "42"


@pytest.mark.needs_binary
def test_log_of_dropped_messages_is_rate_limited(start_kernel, tmp_path):
    log_path = tmp_path / "stderr.log"
    with open(log_path, "wb") as log:
        km, kc = start_kernel(stderr=log)
    sock = _raw_dealer(km)
    try:
        _garbage(sock, 2000)
        # a request behind the garbage on the same connection: its reply means all were read
        session = _session(km)
        msg = session.msg("kernel_info_request", {})
        sock.send_multipart(session.serialize(msg))
        assert sock.poll(30000), "no reply behind the garbage"
    finally:
        sock.close(0)
    text = log_path.read_text(errors="replace")
    dropped = [ln for ln in text.splitlines() if "dropped" in ln]
    assert 1 <= len(dropped) <= 25, f"{len(dropped)} lines about dropped messages"
    assert len(text) < 4000, len(text)


# --- defect 7: source size and history bounds -------------------------------------------------


@pytest.mark.needs_binary
def test_cell_over_the_source_limit_gets_a_clear_error(kc):
    code = "x_big = 1\n" + "#" * MAX_SOURCE
    res = execute(kc, code, timeout=60)
    assert res.status == "error"
    assert res.content["ename"] == "MemoryError"
    assert str(MAX_SOURCE) in res.content["evalue"] and "limit" in res.content["evalue"]
    assert execute(kc, "x_big").error()["ename"] == "NameError"
    # just under the limit runs
    head, tail = "x_big = 2\n#", "\nx_big"
    ok = execute(kc, head + "#" * (MAX_SOURCE - len(head) - len(tail)) + tail, timeout=60)
    assert ok.status == "ok" and ok.result_text() == "2", ok.content


def _history_tail(kc, n=50):
    msg_id = send_shell(kc, "history_request", {"hist_access_type": "tail", "n": n,
                                                "output": False, "raw": True})
    return get_reply(kc, msg_id)["content"]["history"]


def _rss_kb(km) -> int:
    with open(f"/proc/{mtkernel.kernel_pid(km)}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.needs_binary
def test_long_inputs_kept_short_in_history_and_reset_clears_it(start_kernel):
    """(The byte bound on the whole history is checked in tests/kernel/jupyter/test_history.c.)"""
    km, kc = start_kernel()
    cell = "# " + "h" * (3 << 20) + "\nh_last = {}"
    for i in range(12):
        assert execute(kc, cell.format(i), timeout=60).status == "ok"
    hist = _history_tail(kc)
    assert len(hist) == 12
    long_ones = [h for h in hist if len(h[2]) > 1000]
    # each is kept cut short, saying so
    assert all(len(h[2]) < (1 << 20) + 200 for h in long_ones), [len(h[2]) for h in long_ones]
    assert all("only its first" in h[2] for h in long_ones)
    before = _rss_kb(km)
    res = execute(kc, "%reset -f")
    assert res.status == "ok", res
    # as IPython's %reset clears In and Out: the history starts again after it
    assert _history_tail(kc) == []
    print(f"\nRSS before %reset -f {before} kB, after {_rss_kb(km)} kB")
    execute(kc, "h_last")
    assert [h[1:] for h in _history_tail(kc)] == [[14, "h_last"]]


# --- defect 10 (part): requests on the control channel ----------------------------------------


@pytest.mark.parametrize("msg_type,content", [
    ("comm_info_request", {}), ("kernel_info_request", {})])
def test_control_requests_are_answered(kc, msg_type, content):
    msg_id = send_control(kc, msg_type, content)
    reply = get_reply(kc, msg_id, channel="control")
    assert reply["msg_type"] == msg_type.replace("_request", "_reply")
    assert reply["content"]["status"] == "ok"


@pytest.mark.needs_binary
@pytest.mark.parametrize("msg_type,content", [
    ("execute_request", {"code": "1", "silent": False}), ("history_request",
                                                          {"hist_access_type": "tail", "n": 1}),
    ("is_complete_request", {"code": "1"})])
def test_shell_requests_on_control_get_an_error_reply(kc, msg_type, content):
    """Known requests that only the shell thread may serve are answered on control with an
    error reply naming the channel, not left without a reply."""
    msg_id = send_control(kc, msg_type, content)
    reply = get_reply(kc, msg_id, channel="control")
    assert reply["msg_type"] == msg_type.replace("_request", "_reply")
    assert reply["content"]["status"] == "error"
    assert "control channel" in reply["content"]["evalue"]


@pytest.mark.needs_binary
def test_interrupt_request_on_shell_gets_an_error_reply(kc):
    msg_id = send_shell(kc, "interrupt_request", {})
    reply = get_reply(kc, msg_id)
    assert reply["msg_type"] == "interrupt_reply"
    assert reply["content"]["status"] == "error"


# --- defect 6: out of address space -----------------------------------------------------------


def _limit_address_space():
    resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))


@pytest.mark.needs_binary
@pytest.mark.skipif(bool(os.environ.get("ASAN_OPTIONS") or os.environ.get("TSAN_OPTIONS")),
                    reason="sanitizer runtimes reserve terabytes of address space and cannot "
                           "start under an address-space limit (RLIMIT_AS)")
def test_out_of_address_space_every_request_is_answered(start_kernel, tmp_path):
    """Under a 1.5 GiB address space, with 1 GiB of tensor held, a loop that builds a nested list
    until memory runs out gets its MemoryError reply, and the kernel serves the next cells (it
    used to log "could not encode a status message" and answer nothing from then on)."""
    log_path = tmp_path / "stderr.log"
    with open(log_path, "wb") as log:
        km, kc = start_kernel(preexec_fn=_limit_address_space, stderr=log)
    assert execute(kc, "zz = zeros(2**28)", timeout=60).status == "ok"
    res = execute(kc, "a = []\nfor i in range(3000000):\n    a = [a]", timeout=120)
    assert res.status == "error" and res.content["ename"] == "MemoryError", res.content
    for code in ("a", "1\n" * (1 << 20), "s = 'x' * 2**29"):
        res = execute(kc, code, timeout=120)
        assert res.status == "error", res.content
        assert res.error() is not None
    assert execute(kc, "zz.shape").status == "ok"
    assert execute(kc, "6*7").result_text() == "42"
    assert "could not encode" not in log_path.read_text(errors="replace")


# --- a huge value being shown: the interrupt ends it --------------------------------------


@pytest.mark.needs_binary
def test_interrupt_while_a_huge_tensor_is_shown(start_kernel):
    """With set_printoptions(profile="full"), the text of a 64-million-element tensor (and, as a
    cell's result, its table too) is seconds of work inside one builtin, with no loop of the
    language's to poll the interrupt: it used to go on for tens of seconds. Interrupted, the
    cell ends with KeyboardInterrupt within a second or two and the next cell runs."""
    km, kc = start_kernel(mtkernel.KERNEL_NAME)
    setup = 'set_printoptions(profile="full")\nx = rand(8000, 8000)'
    assert execute(kc, setup, timeout=120).status == "ok"
    for cell in ("x", "s = str(x)", "print(x)"):
        msg_id = kc.execute(cell)
        wait_started(kc, msg_id)
        time.sleep(0.3)  # well inside the rendering, which takes seconds even when quick
        t0 = time.perf_counter()
        km.interrupt_kernel()
        reply = get_reply(kc, msg_id, timeout=30)
        latency = time.perf_counter() - t0
        assert reply["content"]["status"] == "error", reply["content"]
        assert reply["content"]["ename"] == "KeyboardInterrupt", reply["content"]
        assert latency < 2.0, f"{cell!r}: the reply came {latency:.1f} s after the interrupt"
        collect_iopub(kc, msg_id)
        assert execute(kc, "x.shape").result_text() == "(8000, 8000)"
    assert execute(kc, "6*7").result_text() == "42"


# --- strings and lists without end: the session's limit of values -------------------------


def _rss(km) -> int:
    """The kernel process's resident memory, in bytes."""
    with open(f"/proc/{mtkernel.kernel_pid(km)}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.mark.needs_binary
def test_values_past_their_memory_limit(start_kernel):
    """A cell that makes strings without end, each far within a string's own limit, stops with a
    MemoryError naming the session's limit of values and how to change it (it used to take the
    machine's memory); the kernel answers the next cells, and the memory goes back to the system
    when the values are freed."""
    sanitized = bool(os.environ.get("ASAN_OPTIONS") or os.environ.get("TSAN_OPTIONS"))
    # a kernel that ignored the limit would take the machine's memory: 3 GiB of address space
    # makes that a plain MemoryError (a sanitizer's runtime cannot start under such a limit)
    limit = None if sanitized else (
        lambda: resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30)))
    km, kc = start_kernel(mtkernel.KERNEL_NAME, preexec_fn=limit)
    assert execute(kc, "%memory values 512MiB").status == "ok"
    before = _rss(km)
    res = execute(kc, 'xs = []\nwhile true:\n    xs.append("x" * 1000000)', timeout=60)
    assert res.status == "error", res.content
    assert res.content["ename"] == "MemoryError", res.content
    assert "512 MiB" in res.content["evalue"], res.content["evalue"]
    assert "%memory values SIZE" in res.content["evalue"], res.content["evalue"]
    assert execute(kc, "len(xs) > 400").result_text() == "True"
    held = _rss(km)
    assert held > before + (400 << 20), (before, held)
    assert execute(kc, "del xs\n6*7").result_text() == "42"
    if not sanitized:  # a sanitizer's allocator keeps freed memory in quarantine
        after = _rss(km)
        assert after < before + (64 << 20), (before, held, after)
