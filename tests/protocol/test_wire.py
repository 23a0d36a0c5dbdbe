"""The wire: HMAC signatures and malformed multipart messages, sent from a raw ZeroMQ DEALER.

A request with a bad signature must be dropped (never executed, no reply, no iopub output) and
logged on the kernel's stderr; malformed messages (no `<IDS|MSG>` delimiter, too few frames,
invalid JSON, a 100 MB frame, ...) must be dropped without crashing. After each, a proper
request must still be answered. Each test starts its own kernel with stderr going to a file,
so a crash is pinned on the message that caused it."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid

import pytest
import zmq
from jupyter_client.session import Session

import mtkernel
from mtkernel import collect_iopub, execute, wait_for

DELIM = b"<IDS|MSG>"
MB100 = 100 * 1024 * 1024


class Wire:
    """A kernel (km, kc), its stderr log and a raw DEALER on its shell port."""

    def __init__(self, km, kc, log_path):
        self.km, self.kc, self.log_path = km, kc, log_path
        info = km.get_connection_info()
        self.key = info["key"] if isinstance(info["key"], bytes) else info["key"].encode()
        self.session = Session(key=self.key, signature_scheme=info["signature_scheme"],
                               username="wire-test")
        self.ctx = zmq.Context.instance()
        self.sock = self.new_dealer()

    def new_dealer(self):
        s = self.ctx.socket(zmq.DEALER)
        s.linger = 0
        s.connect(self.km._make_url("shell"))
        return s

    def close(self):
        self.sock.close(0)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def sign(self, frames: list[bytes], key: bytes | None = None) -> bytes:
        h = hmac.new(self.key if key is None else key, digestmod=hashlib.sha256)
        for f in frames:
            h.update(f)
        return h.hexdigest().encode()

    def execute_msg(self, code: str) -> dict:
        return self.session.msg("execute_request", content={
            "code": code, "silent": False, "store_history": True, "user_expressions": {},
            "allow_stdin": False, "stop_on_error": True})

    def frames(self, msg: dict) -> list[bytes]:
        """[DELIM, signature, header, parent, metadata, content], properly signed."""
        return self.session.serialize(msg)

    def recv(self, timeout: float) -> dict | None:
        if not self.sock.poll(int(timeout * 1000)):
            return None
        parts = self.sock.recv_multipart()
        _, parts = self.session.feed_identities(parts)
        return self.session.deserialize(parts)

    def proper_roundtrip(self, timeout: float = mtkernel.TIMEOUT,
                         tolerate: frozenset = frozenset(),
                         tolerate_any: frozenset = frozenset()) -> dict:
        """Sends a properly signed execute_request on the raw socket; the first thing that comes
        back on that socket must be its reply, except error replies to ids in `tolerate` (a
        well-formed, correctly signed request with bad content may get an error reply) and any
        reply to ids in `tolerate_any`."""
        msg = self.execute_msg("6*7")
        self.sock.send_multipart(self.frames(msg))
        while True:
            reply = self.recv(timeout)
            assert reply is not None, "kernel did not answer a proper request after the bad one"
            pid = reply["parent_header"].get("msg_id")
            if pid in tolerate and reply["content"].get("status") == "error":
                continue
            if pid in tolerate_any:
                continue
            assert pid == msg["header"]["msg_id"], \
                f"got a reply to something else first: {reply['msg_type']} {reply['content']}"
            assert reply["content"]["status"] == "ok"
            return msg

    def assert_alive(self) -> None:
        """The kernel process is alive and answers the regular client."""
        proc = mtkernel.kernel_process(self.km)
        assert proc is not None and proc.poll() is None, \
            f"kernel died (exit {proc.returncode if proc else '?'}); stderr:\n{self.log()[-3000:]}"
        res = execute(self.kc, 'print("still here")')
        assert res.stream() == "still here\n", res


@pytest.fixture
def wire(start_kernel, tmp_path):
    log_path = tmp_path / "kernel-stderr.log"
    with open(log_path, "wb") as log:
        km, kc = start_kernel(mtkernel.KERNEL_NAME, stderr=log)
    w = Wire(km, kc, log_path)
    yield w
    w.close()


# --- positive control: the raw client and the output checks work -----------------------------


def test_raw_client_positive_control(wire):
    """The same raw frames, correctly signed, do run: so the drop tests below can fail."""
    marker = f"CONTROL-{uuid.uuid4().hex[:8]}"
    msg = wire.execute_msg(f'print("{marker}")')
    wire.sock.send_multipart(wire.frames(msg))
    reply = wire.recv(mtkernel.TIMEOUT)
    assert reply is not None and reply["parent_header"]["msg_id"] == msg["header"]["msg_id"]
    assert reply["content"]["status"] == "ok"
    io = collect_iopub(wire.kc, msg["header"]["msg_id"])
    assert any(marker in json.dumps(m["content"]) for m in io)
    # and the frames the malformed tests start from run too
    wire.sock.send_multipart(_valid(wire))
    reply = wire.recv(mtkernel.TIMEOUT)
    assert reply is not None and reply["content"]["status"] == "ok"
    io = collect_iopub(wire.kc, reply["parent_header"]["msg_id"])
    assert any("MALFORMED-RAN" in json.dumps(m["content"]) for m in io)


# --- signatures --------------------------------------------------------------------------------


def _forge(w: Wire, how: str, marker: str) -> list[bytes]:
    msg = w.execute_msg(f'print("{marker}")')
    frames = w.frames(msg)
    if how == "random_hex":
        frames[1] = uuid.uuid4().hex.encode() * 2
    elif how == "empty":
        frames[1] = b""
    elif how == "wrong_key":
        frames[1] = w.sign(frames[2:6], key=b"not-the-key")
    elif how == "truncated":
        frames[1] = frames[1][:-2]
    elif how == "tampered_content":
        # sign an innocent request, then swap in other code
        innocent = w.execute_msg("1")
        innocent["header"] = msg["header"]
        frames = w.frames(innocent)
        frames[5] = json.dumps(msg["content"]).encode()
    elif how == "tampered_metadata":
        frames[4] = b'{"x": 1}'
    elif how == "tampered_parent":
        frames[3] = b'{"msg_id": "x"}'
    else:
        raise ValueError(how)
    return frames


@pytest.mark.parametrize("how", ["random_hex", "empty", "wrong_key", "truncated",
                                 "tampered_content", "tampered_metadata", "tampered_parent"])
def test_bad_signature_dropped(wire, how):
    marker = f"FORGED-{uuid.uuid4().hex[:8]}"
    frames = _forge(wire, how, marker)
    forged_id = json.loads(frames[2])["msg_id"]
    log_before = len(wire.log())
    wire.sock.send_multipart(frames)
    # nothing comes back for it within 1 s
    assert wire.recv(1.0) is None, "the kernel answered a request with a bad signature"
    # and it logged something on stderr
    assert wait_for(lambda: len(wire.log()) > log_before, 2.0), \
        "nothing logged on stderr about the dropped message"
    ok_msg = wire.proper_roundtrip()
    others: list = []
    collect_iopub(wire.kc, ok_msg["header"]["msg_id"], others=others)
    for m in others:
        assert m["parent_header"].get("msg_id") != forged_id, f"iopub output for forged: {m}"
        assert marker not in json.dumps(m["content"]), f"forged code ran: {m}"
    wire.assert_alive()


def test_replayed_message_dropped(wire):
    """The same signed frames sent twice: the first runs, the copy is dropped (no reply, no
    output, logged), as jupyter_client's Session refuses a duplicate signature."""
    marker = f"REPLAY-{uuid.uuid4().hex[:8]}"
    frames = wire.frames(wire.execute_msg(f'print("{marker}")'))
    msg_id = json.loads(frames[2])["msg_id"]
    wire.sock.send_multipart(frames)
    reply = wire.recv(mtkernel.TIMEOUT)
    assert reply is not None and reply["content"]["status"] == "ok"
    collect_iopub(wire.kc, msg_id)
    log_before = len(wire.log())
    wire.sock.send_multipart(frames)  # the very same bytes again
    assert wire.recv(1.0) is None, "the kernel answered a replayed request"
    assert wait_for(lambda: "replayed" in wire.log()[log_before:], 2.0), \
        "nothing logged on stderr about the replayed message"
    ok_msg = wire.proper_roundtrip()
    others: list = []
    collect_iopub(wire.kc, ok_msg["header"]["msg_id"], others=others)
    assert not [m for m in others if marker in json.dumps(m["content"])], "the replay ran"
    wire.assert_alive()


def test_wrong_key_from_regular_client(wire):
    """A whole client with the wrong key gets nothing; the right one still works."""
    bad = Session(key=b"wrong", username="bad")
    msg = bad.msg("kernel_info_request", {})
    bad.send(wire.sock, msg)
    assert wire.recv(1.0) is None
    wire.proper_roundtrip()


# --- malformed multipart -----------------------------------------------------------------------


def _valid(w: Wire) -> list[bytes]:
    return w.frames(w.execute_msg('print("MALFORMED-RAN")'))


def _with_sig(w: Wire, h: bytes, p: bytes = b"{}", m: bytes = b"{}", c: bytes = b"{}"):
    return [DELIM, w.sign([h, p, m, c]), h, p, m, c]


def _header(**over) -> bytes:
    h = {"msg_id": uuid.uuid4().hex, "username": "u", "session": uuid.uuid4().hex,
         "date": "2024-01-01T00:00:00.000000Z", "msg_type": "execute_request", "version": "5.3"}
    h.update(over)
    return json.dumps({k: v for k, v in h.items() if v is not None}).encode()


CODE = json.dumps({"code": 'print("MALFORMED-RAN")', "silent": False}).encode()

MALFORMED = {
    "no_delimiter": lambda w: _valid(w)[1:],
    "only_delimiter": lambda w: [DELIM],
    "delimiter_and_signature": lambda w: _valid(w)[:2],
    "missing_content": lambda w: _valid(w)[:5],
    "three_frames": lambda w: _valid(w)[:3],
    "empty_frames": lambda w: [b"", b"", b""],
    "one_empty_frame": lambda w: [b""],
    "invalid_json_header": lambda w: _with_sig(w, b"{not json", c=CODE),
    "invalid_json_content": lambda w: _with_sig(w, _header(), c=b'{"code": "print(1)"'),
    "invalid_json_parent": lambda w: _with_sig(w, _header(), p=b"[", c=CODE),
    "invalid_json_metadata": lambda w: _with_sig(w, _header(), m=b"}", c=CODE),
    "json_not_object": lambda w: _with_sig(w, b"[1, 2]", p=b"null", m=b"42", c=b'"s"'),
    "header_without_msg_type": lambda w: _with_sig(w, _header(msg_type=None), c=CODE),
    "msg_type_not_string": lambda w: _with_sig(w, _header(msg_type=7), c=CODE),
    "content_not_object": lambda w: _with_sig(w, _header(), c=b"[]"),
    "code_not_string": lambda w: _with_sig(w, _header(), c=b'{"code": 5, "stop_on_error": false}'),
    "binary_garbage": lambda w: _with_sig(w, b"\xff\xfe\x00\x80" * 8, c=b"\x00" * 16),
    "nul_in_json": lambda w: _with_sig(w, _header(), c=b'{"code": "1"}\x00garbage'),
    "deep_nesting": lambda w: _with_sig(w, _header(), c=b"[" * 100000 + b"]" * 100000),
    "many_frames_bad_signature": lambda w: [DELIM, b"0" * 64] + _valid(w)[2:] + [b"x"] * 1000,
    "lone_signature_no_ids": lambda w: [b"deadbeef"] * 6,
}


WRONG_TYPES = {"content_not_object", "code_not_string"}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_malformed_dropped(wire, name):
    frames = MALFORMED[name](wire)
    tolerate = set()
    try:  # a correctly signed request with a parseable header may get an error reply
        tolerate.add(json.loads(frames[2])["msg_id"])
    except Exception:
        pass
    # well-formed and signed, only the content has wrong types: any reply is acceptable
    tolerate_any = frozenset(tolerate) if name in WRONG_TYPES else frozenset()
    wire.sock.send_multipart(frames)
    ok_msg = wire.proper_roundtrip(tolerate=frozenset(tolerate), tolerate_any=tolerate_any)
    others: list = []
    collect_iopub(wire.kc, ok_msg["header"]["msg_id"], others=others)
    for m in others:
        assert "MALFORMED-RAN" not in json.dumps(m["content"]), f"malformed ran: {m}"
    wire.assert_alive()


@pytest.mark.parametrize("signed", [False, True], ids=["bad_signature", "valid_signature"])
def test_100mb_frame(wire, signed):
    """A 100 MB content frame (not valid JSON) is dropped; the kernel keeps serving."""
    big = b"x" * MB100
    h = _header()
    sig = wire.sign([h, b"{}", b"{}", big]) if signed else b"0" * 64
    t0 = time.monotonic()
    wire.sock.send_multipart([DELIM, sig, h, b"{}", b"{}", big], copy=False)
    del big
    # A request behind it on the same connection is read after it, so its reply means the big
    # one was handled (and got no reply). A kernel with a message size limit may instead drop
    # the connection, losing the follow-up too: then only the checks below apply.
    follow = wire.execute_msg("6*7")
    wire.sock.send_multipart(wire.frames(follow))
    reply = wire.recv(30)
    if reply is not None:
        assert reply["parent_header"]["msg_id"] == follow["header"]["msg_id"], \
            f"the 100 MB message was answered: {reply['content']}"
        assert reply["content"]["status"] == "ok"
        print(f"\n100 MB frame ({'signed' if signed else 'unsigned'}): reply behind it after "
              f"{time.monotonic() - t0:.2f} s")
    else:
        print("\n100 MB frame: the sending connection was dropped (message size limit)")
    res = execute(wire.kc, "6*7", timeout=30)
    assert res.result_text() == "42", res
    wire.assert_alive()
    # a fresh raw client gets answers
    wire.sock.close(0)
    wire.sock = wire.new_dealer()
    wire.proper_roundtrip()


def test_frame_over_the_size_limit_is_never_read(wire):
    """A properly signed execute_request whose content frame is over the kernel's 32 MiB frame
    limit (ZMQ_MAXMSGSIZE) — a comment of 32 MiB, then a print — never reaches the kernel:
    ZeroMQ drops the connection it came on, so nothing runs and nothing answers it. The kernel
    lives on and the same client is served again (its DEALER reconnects)."""
    marker = f"OVERSIZE-{uuid.uuid4().hex[:8]}"
    msg = wire.execute_msg("# " + "x" * (32 << 20) + f'\nprint("{marker}")')
    frames = wire.frames(msg)
    assert max(len(f) for f in frames) > (32 << 20)
    wire.sock.send_multipart(frames, copy=False)
    del frames, msg
    ok_msg = wire.proper_roundtrip(timeout=30)  # the first reply is the follow-up's
    others: list = []
    collect_iopub(wire.kc, ok_msg["header"]["msg_id"], others=others)
    assert not [m for m in others if marker in json.dumps(m["content"])], "the oversized cell ran"
    wire.assert_alive()


def test_garbage_on_every_channel(wire):
    """Malformed messages on control, stdin and iopub are dropped too."""
    for channel, stype in (("control", zmq.DEALER), ("stdin", zmq.DEALER), ("iopub", zmq.SUB)):
        s = wire.ctx.socket(stype)
        s.linger = 0
        s.connect(wire.km._make_url(channel))
        if stype == zmq.SUB:
            s.setsockopt(zmq.SUBSCRIBE, b"")
            s.close(0)
            continue
        for frames in (_valid(wire)[1:], [DELIM], _with_sig(wire, b"{not json"),
                       [DELIM, b"0" * 64] + _valid(wire)[2:]):
            s.send_multipart(frames)
        assert not s.poll(300), f"{channel} answered garbage"
        s.close(0)
    wire.proper_roundtrip()
    wire.assert_alive()


def test_heartbeat_survives_garbage(wire):
    s = wire.ctx.socket(zmq.DEALER)
    s.linger = 0
    s.connect(wire.km._make_url("hb"))
    s.send_multipart([b"a", b"b", b"c"])
    s.send(b"")
    s.send(b"y" * (1 << 20))
    s.close(0)
    r = wire.ctx.socket(zmq.REQ)
    r.linger = 0
    r.connect(wire.km._make_url("hb"))
    r.send(b"ping")
    assert r.poll(2000), "heartbeat stopped answering"
    assert r.recv() == b"ping"
    r.close(0)
    wire.assert_alive()
