"""stdin (input_request), history_request contents and comms."""

from __future__ import annotations

import uuid
from queue import Empty

import pytest
from jupyter_kernel_test.msgspec_v5 import validate_message

from mtkernel import collect_iopub, execute, finish, get_reply, send_shell, TIMEOUT


# --- stdin -------------------------------------------------------------------------------------


def _check_input_request(req, msg_id, prompt, password):
    assert req["msg_type"] == "input_request"
    assert req["parent_header"]["msg_id"] == msg_id
    assert req["content"] == {"prompt": prompt, "password": password}
    for k in ("msg_id", "session", "date", "version", "username"):
        assert k in req["header"]


@pytest.fixture
def skc(start_kernel):
    """A fresh kernel for each stdin test: one stuck in input() must not block others."""
    return start_kernel()[1]


def test_input_request_and_reply(skc):
    kc = skc
    msg_id = kc.execute('name = input("prompt> ")\nprint("got " + name)\nname', allow_stdin=True)
    req = kc.get_stdin_msg(timeout=TIMEOUT)
    _check_input_request(req, msg_id, "prompt> ", False)
    kc.input("abc ü")
    res = finish(kc, msg_id)
    assert res.status == "ok", res
    assert res.stream() == "got abc ü\n"
    assert res.result_text() == "'abc ü'"


def test_input_password(skc):
    kc = skc
    msg_id = kc.execute('pw = input("pw", password=true)\npw', allow_stdin=True)
    req = kc.get_stdin_msg(timeout=TIMEOUT)
    _check_input_request(req, msg_id, "pw", True)
    kc.input("secret")
    res = finish(kc, msg_id)
    assert res.status == "ok", res
    assert res.result_text() == "'secret'"


def test_two_inputs_in_one_cell(skc):
    kc = skc
    msg_id = kc.execute('a_in = input("a")\nb_in = input("b")\na_in + b_in', allow_stdin=True)
    for prompt, answer in (("a", "1"), ("b", "2")):
        req = kc.get_stdin_msg(timeout=TIMEOUT)
        assert req["content"]["prompt"] == prompt
        kc.input(answer)
    res = finish(kc, msg_id)
    assert res.result_text() == "'12'"


def test_input_without_stdin(skc):
    kc = skc
    res = execute(kc, 'x_no = input("nope")', allow_stdin=False)
    assert res.status == "error"
    assert res.content["ename"] == "StdinNotImplementedError"
    with pytest.raises(Empty):
        kc.get_stdin_msg(timeout=0.3)
    assert execute(kc, "1").status == "ok"


# --- history -----------------------------------------------------------------------------------


def _history(kc, **kw):
    msg_id = kc.history(**kw)
    r = get_reply(kc, msg_id)
    validate_message(r, "history_reply", msg_id)
    assert r["content"]["status"] == "ok"
    return r["content"]["history"]


def test_history_tail_range(start_kernel):
    _, kc = start_kernel()
    ec_a = execute(kc, "h_a = 1").content["execution_count"]
    execute(kc, "h_b = 2", store_history=False)
    execute(kc, "h_s = 9", silent=True)
    ec_c = execute(kc, "h_c = 3").content["execution_count"]
    ec_d = execute(kc, "h_a + h_c").content["execution_count"]
    assert ec_c == ec_a + 1 and ec_d == ec_c + 1

    hist = _history(kc, raw=True, output=False, hist_access_type="tail", n=10)
    assert [h[2] for h in hist] == ["h_a = 1", "h_c = 3", "h_a + h_c"]
    assert [h[1] for h in hist] == [ec_a, ec_c, ec_d], "line numbers are execution counts"
    session = hist[0][0]
    assert all(h[0] == session for h in hist)

    hist = _history(kc, raw=True, output=False, hist_access_type="tail", n=2)
    assert [h[2] for h in hist] == ["h_c = 3", "h_a + h_c"]

    hist = _history(kc, raw=True, output=True, hist_access_type="tail", n=1)
    assert len(hist) == 1
    assert len(hist[0][2]) == 2 and hist[0][2][0] == "h_a + h_c"

    hist = _history(kc, raw=True, output=False, hist_access_type="range",
                    session=session, start=ec_a, stop=ec_c + 1)
    assert [(h[1], h[2]) for h in hist] == [(ec_a, "h_a = 1"), (ec_c, "h_c = 3")]
    hist = _history(kc, raw=True, output=False, hist_access_type="range",
                    session=session, start=ec_c, stop=ec_c + 1)
    assert [(h[1], h[2]) for h in hist] == [(ec_c, "h_c = 3")]


def test_history_search(start_kernel):
    _, kc = start_kernel()
    for code in ["s_1 = 1", "s_2 = 2", "other = 0", "s_1 = 1", "s_22 = 22"]:
        assert execute(kc, code).status == "ok"
    hist = _history(kc, raw=True, output=False, hist_access_type="search", pattern="s_? = *")
    assert sorted(h[2] for h in hist) == sorted(["s_1 = 1", "s_2 = 2", "s_1 = 1"])
    hist = _history(kc, raw=True, output=False, hist_access_type="search", pattern="s_* = *",
                    unique=True)
    assert sorted(h[2] for h in hist) == sorted(["s_1 = 1", "s_2 = 2", "s_22 = 22"])
    hist = _history(kc, raw=True, output=False, hist_access_type="search", pattern="s_*", n=1)
    assert [h[2] for h in hist] == ["s_22 = 22"], "n keeps the latest matches"
    hist = _history(kc, raw=True, output=False, hist_access_type="search", pattern="nomatch*")
    assert hist == []


# --- comms -------------------------------------------------------------------------------------


def test_comm_info(kc):
    msg_id = send_shell(kc, "comm_info_request", {})
    r = get_reply(kc, msg_id)
    validate_message(r, "comm_info_reply", msg_id)
    assert r["content"] == {"status": "ok", "comms": {}}
    msg_id = send_shell(kc, "comm_info_request", {"target_name": "jupyter.widget"})
    r = get_reply(kc, msg_id)
    assert r["content"]["comms"] == {}
    io = collect_iopub(kc, msg_id)
    assert [m["content"]["execution_state"] for m in io] == ["busy", "idle"]


def test_comm_open_is_closed(kc):
    comm_id = uuid.uuid4().hex
    msg_id = send_shell(kc, "comm_open",
                        {"comm_id": comm_id, "target_name": "no.such.target", "data": {}})
    io = collect_iopub(kc, msg_id)
    closes = [m for m in io if m["msg_type"] == "comm_close"]
    assert len(closes) == 1, [m["msg_type"] for m in io]
    assert closes[0]["content"]["comm_id"] == comm_id
    assert io[0]["msg_type"] == "status" and io[0]["content"]["execution_state"] == "busy"
    # messages for unknown comms are ignored, the kernel keeps working
    msg_id = send_shell(kc, "comm_msg", {"comm_id": comm_id, "data": {"x": 1}})
    collect_iopub(kc, msg_id)
    msg_id = send_shell(kc, "comm_close", {"comm_id": comm_id, "data": {}})
    collect_iopub(kc, msg_id)
    assert execute(kc, "1").status == "ok"


def test_unknown_request_type_ignored(kc):
    send_shell(kc, "no_such_request", {})
    assert execute(kc, "6*7").result_text() == "42"
