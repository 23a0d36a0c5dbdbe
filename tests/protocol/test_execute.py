"""execute_request and the shell requests around it, beyond what jupyter_kernel_test checks:
message order and parents, silent, store_history / execution_count, user_expressions,
stop_on_error, display ids and update_display_data, clear_output, errors, kernel_info's
busy/idle, completion offsets in code points, pager payloads."""

from __future__ import annotations

import time

import pytest
from jupyter_kernel_test.msgspec_v5 import validate_message

import mtkernel
from mtkernel import collect_iopub, execute, get_reply, send_control


def validate_all(res: mtkernel.Result) -> None:
    validate_message(res.reply, "execute_reply", res.msg_id)
    for m in res.iopub:
        validate_message(m, m["msg_type"], res.msg_id)


# --- kernel_info -----------------------------------------------------------------------------


def test_kernel_info_reply_and_busy_idle(kc):
    msg_id = kc.kernel_info()
    reply = get_reply(kc, msg_id)
    validate_message(reply, "kernel_info_reply", msg_id)
    c = reply["content"]
    assert c["status"] == "ok"
    assert c["protocol_version"].split(".")[:2] == ["5", "3"], c["protocol_version"]
    assert c["implementation"] == "minitorch-kernel"
    assert isinstance(c["implementation_version"], str) and c["implementation_version"]
    li = c["language_info"]
    assert li["name"] == "minitorch"
    assert li["file_extension"] == ".mt"
    assert li["mimetype"] == "text/x-minitorch"
    assert li["codemirror_mode"] == "python"
    assert li["pygments_lexer"] == "python"
    assert isinstance(li["version"], str) and li["version"]
    assert isinstance(c["banner"], str) and c["banner"]
    assert isinstance(c.get("help_links"), list)
    for link in c["help_links"]:
        assert set(link) >= {"text", "url"}, link
    # the header announces the protocol version too (jupyter_kernel_test's strictness depends on it)
    assert reply["header"]["version"].split(".")[:2] == ["5", "3"]

    iopub = collect_iopub(kc, msg_id)
    states = [m["content"]["execution_state"] for m in iopub if m["msg_type"] == "status"]
    assert states == ["busy", "idle"], [m["msg_type"] for m in iopub]
    assert [m["msg_type"] for m in iopub] == ["status", "status"]
    for m in iopub:
        validate_message(m, "status", msg_id)
        assert m["parent_header"]["msg_type"] == "kernel_info_request"


def test_kernel_info_on_control(kc):
    msg_id = send_control(kc, "kernel_info_request", {})
    reply = get_reply(kc, msg_id, channel="control")
    validate_message(reply, "kernel_info_reply", msg_id)
    assert reply["content"]["language_info"]["name"] == "minitorch"


def test_reply_identity_and_session(kc):
    """Replies carry the request as parent header and the kernel's own session id."""
    res = execute(kc, "x_ident = 1")
    assert res.reply["parent_header"]["msg_id"] == res.msg_id
    assert res.reply["parent_header"]["session"] == kc.session.session
    assert res.reply["header"]["session"] != kc.session.session
    sessions = {m["header"]["session"] for m in res.iopub} | {res.reply["header"]["session"]}
    assert len(sessions) == 1, "reply and iopub messages come from one kernel session"
    ids = [m["header"]["msg_id"] for m in res.iopub] + [res.reply["header"]["msg_id"]]
    assert len(set(ids)) == len(ids), "every message has its own msg_id"


# --- basic execution ---------------------------------------------------------------------------


def test_message_order(kc):
    code = 'print("hello, world")\n6*7'
    res = execute(kc, code)
    validate_all(res)
    assert res.status == "ok"
    types = [m["msg_type"] for m in res.iopub]
    assert types == ["status", "execute_input", "stream", "execute_result", "status"], types
    assert res.iopub[0]["content"]["execution_state"] == "busy"
    assert res.iopub[-1]["content"]["execution_state"] == "idle"
    ei = res.iopub[1]["content"]
    assert ei["code"] == code
    assert ei["execution_count"] == res.content["execution_count"]
    er = res.of_type("execute_result")[0]["content"]
    assert er["execution_count"] == res.content["execution_count"]
    assert er["data"]["text/plain"] == "42"
    assert res.stream("stdout") == "hello, world\n"
    # outputs go out before the reply, idle after it (header dates are the kernel's clock)
    rdate = res.reply["header"]["date"]
    for m in res.iopub[:-1]:
        assert m["header"]["date"] <= rdate, (m["msg_type"], m["header"]["date"], rdate)
    assert res.iopub[-1]["header"]["date"] >= rdate


@pytest.mark.parametrize(
    "code, text",
    [
        ("6*7", "42"),
        ('"ab"', "'ab'"),
        ("1/2", "0.5"),
        ("x_r = 20\nx_r + 22", "42"),
        ("a_r = 1; b_r = 2; a_r + b_r", "3"),
        ("# a comment\n40 + 2  # trailing comment", "42"),
    ],
)
def test_execute_result_text(kc, code, text):
    res = execute(kc, code)
    assert res.status == "ok", res
    assert res.result_text() == text, res
    assert len(res.of_type("execute_result")) == 1


@pytest.mark.parametrize("code", ["6*7;", "x_none = 3", 'print("p")'])
def test_no_execute_result(kc, code):
    res = execute(kc, code)
    assert res.status == "ok", res
    assert res.of_type("execute_result") == [], res


def test_stdout_and_stderr_streams(kc):
    res = execute(kc, 'print("out1")\nwarn("x")\nprint("out2")')
    assert res.status == "ok", res
    assert res.stream("stdout") == "out1\nout2\n"
    assert res.stream("stderr") == "x\n"


def test_unicode_output(kc):
    res = execute(kc, 'print("héllo, wörld ✓ 🙂")')
    assert res.stream("stdout") == "héllo, wörld ✓ 🙂\n"


def test_blocks(kc):
    code = (
        "total = 0\n"
        "for i in range(5):\n"
        "    if i == 2:\n"
        "        total = total + 100\n"
        "    elif i == 3:\n"
        "        total = total + 10\n"
        "    else:\n"
        "        total = total + 1\n"
        "n = 0\n"
        "while n < 3:\n"
        "    n = n + 1\n"
        "total + n"
    )
    res = execute(kc, code)
    assert res.status == "ok", res
    assert res.result_text() == "116"


# --- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, ename",
    [("1/0", "ZeroDivisionError"), ("undefined_name", "NameError"), ("1 +", "SyntaxError")],
)
def test_error_reply(kc, code, ename):
    res = execute(kc, code)
    validate_all(res)
    assert res.status == "error"
    c = res.content
    assert c["ename"] == ename
    assert isinstance(c["evalue"], str)
    assert isinstance(c["traceback"], list) and c["traceback"]
    assert all(isinstance(line, str) for line in c["traceback"])
    assert isinstance(c["execution_count"], int)
    errs = res.of_type("error")
    assert len(errs) == 1
    assert errs[0]["content"]["ename"] == ename
    assert errs[0]["content"]["evalue"] == c["evalue"]
    assert errs[0]["content"]["traceback"] == c["traceback"]
    assert res.outputs == errs, "nothing but the error is published"


def test_state_kept_after_error(kc):
    res = execute(kc, "kept = 5\n1/0\nkept = 6")
    assert res.status == "error"
    res = execute(kc, "kept")
    assert res.result_text() == "5"


def test_error_after_output(kc):
    res = execute(kc, 'print("before")\nundefined_name\nprint("after")')
    assert res.status == "error"
    assert res.stream("stdout") == "before\n"
    types = [m["msg_type"] for m in res.outputs]
    assert types == ["stream", "error"], types


# --- silent / store_history / execution_count --------------------------------------------------


def test_execution_count_and_store_history(kc):
    a = execute(kc, "1").content["execution_count"]
    b = execute(kc, "1").content["execution_count"]
    assert b == a + 1
    r = execute(kc, "1", store_history=False)
    assert r.status == "ok"
    # execute_input of a store_history=False cell still goes out
    assert r.of_type("execute_input"), r
    c = execute(kc, "1").content["execution_count"]
    assert c == b + 1, "store_history=False must not advance execution_count"
    r = execute(kc, "1/0", store_history=False)
    assert r.status == "error"
    d = execute(kc, "1").content["execution_count"]
    assert d == c + 1


def test_silent(kc):
    before = execute(kc, "1").content["execution_count"]
    res = execute(kc, "silent_var = 6*7\nsilent_var", silent=True)
    assert res.status == "ok", res
    types = [m["msg_type"] for m in res.iopub]
    assert "execute_input" not in types, types
    assert "execute_result" not in types, types
    assert types[0] == "status" and res.iopub[0]["content"]["execution_state"] == "busy"
    assert types[-1] == "status" and res.iopub[-1]["content"]["execution_state"] == "idle"
    after = execute(kc, "silent_var").content
    assert after["execution_count"] == before + 1, "silent must not advance execution_count"
    # the silent cell really ran
    assert execute(kc, "silent_var").result_text() == "42"


def test_silent_error_still_errors(kc):
    res = execute(kc, "1/0", silent=True)
    assert res.status == "error"
    assert res.content["ename"] == "ZeroDivisionError"


# --- user_expressions --------------------------------------------------------------------------


def test_user_expressions(kc):
    res = execute(
        kc,
        "ue_x = 6",
        user_expressions={"ok": "ue_x * 7", "name": "no_such_thing", "div": "1/0", "s": '"ab"'},
    )
    validate_all(res)
    assert res.status == "ok"
    ue = res.content["user_expressions"]
    assert set(ue) == {"ok", "name", "div", "s"}
    assert ue["ok"]["status"] == "ok"
    assert ue["ok"]["data"]["text/plain"] == "42"
    assert isinstance(ue["ok"]["metadata"], dict)
    assert ue["s"]["status"] == "ok" and ue["s"]["data"]["text/plain"] == "'ab'"
    for key, ename in (("name", "NameError"), ("div", "ZeroDivisionError")):
        e = ue[key]
        assert e["status"] == "error", e
        assert e["ename"] == ename
        assert isinstance(e["evalue"], str)
        assert isinstance(e["traceback"], list)
        assert all(isinstance(t, str) for t in e["traceback"])
    # evaluating expressions publishes nothing of its own
    assert [m["msg_type"] for m in res.outputs] == [], res


def test_user_expressions_empty_and_after_error(kc):
    res = execute(kc, "1")
    assert res.content["user_expressions"] == {}
    res = execute(kc, "ue_y = 2\n1/0", user_expressions={"y": "ue_y"})
    assert res.status == "error"
    # ipykernel evaluates user_expressions only on success; either way the reply stays valid
    validate_message(res.reply, "execute_reply", res.msg_id)


# --- stop_on_error -----------------------------------------------------------------------------


def _queue_after_error(kc, stop_on_error: bool):
    # the error cell sleeps first so the next two requests are queued before it fails
    ids = [kc.execute("sleep(0.5)\n1/0", stop_on_error=stop_on_error)]
    ids.append(kc.execute('print("second")\nsecond = 2'))
    ids.append(kc.execute('print("third")\nthird = 3'))
    replies = [get_reply(kc, i) for i in ids]
    iopubs = [collect_iopub(kc, i) for i in ids]
    return ids, replies, iopubs


def test_stop_on_error_true_aborts_queue(kc):
    execute(kc, "second = 0; third = 0")
    ids, replies, iopubs = _queue_after_error(kc, stop_on_error=True)
    assert replies[0]["content"]["status"] == "error"
    for r, io in zip(replies[1:], iopubs[1:]):
        assert r["content"]["status"] == "aborted", r["content"]
        assert r["msg_type"] == "execute_reply"
        types = [m["msg_type"] for m in io]
        assert types[0] == "status" and io[0]["content"]["execution_state"] == "busy", types
        assert types[-1] == "status" and io[-1]["content"]["execution_state"] == "idle", types
        assert "stream" not in types, "an aborted cell must not run"
    assert execute(kc, "second + third").result_text() == "0"
    # the kernel runs requests again after the queue was aborted
    res = execute(kc, 'print("later")')
    assert res.status == "ok" and res.stream() == "later\n"


def test_stop_on_error_false_runs_queue(kc):
    ids, replies, iopubs = _queue_after_error(kc, stop_on_error=False)
    assert [r["content"]["status"] for r in replies] == ["error", "ok", "ok"]
    outs = ["".join(m["content"]["text"] for m in io if m["msg_type"] == "stream")
            for io in iopubs]
    assert outs[1:] == ["second\n", "third\n"]
    assert execute(kc, "second + third").result_text() == "5"


# --- display / update_display / clear_output ---------------------------------------------------


def test_display_data(kc):
    res = execute(kc, "display(42)\ndisplay(\"s\")")
    validate_all(res)
    dd = res.of_type("display_data")
    assert [d["content"]["data"]["text/plain"] for d in dd] == ["42", "'s'"]
    for d in dd:
        assert isinstance(d["content"]["metadata"], dict)
        assert "display_id" not in d["content"].get("transient", {})


def test_display_id_and_update(kc):
    res = execute(kc, 'display(1, display_id="d1")\nupdate_display(2, display_id="d1")')
    validate_all(res)
    assert res.status == "ok", res
    types = [m["msg_type"] for m in res.outputs]
    assert types == ["display_data", "update_display_data"], types
    d, u = res.outputs
    assert d["content"]["transient"] == {"display_id": "d1"}
    assert d["content"]["data"]["text/plain"] == "1"
    assert u["content"]["transient"] == {"display_id": "d1"}
    assert u["content"]["data"]["text/plain"] == "2"
    # an update from a later cell
    res = execute(kc, 'update_display(3, display_id="d1")')
    u = res.of_type("update_display_data")
    assert len(u) == 1, res
    assert u[0]["content"]["transient"]["display_id"] == "d1"
    assert u[0]["content"]["data"]["text/plain"] == "3"
    validate_message(u[0], "update_display_data", res.msg_id)


def test_ipython_display_objects(kc):
    """IPython.display's SVG, HTML and Markdown: a display_data of their one rich type, the text
    as given, beside IPython's text/plain; an SVG redrawn in place through its display_id."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8">'
           '<circle cx="4" cy="4" r="3"/></svg>')
    svg2 = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'
    res = execute(kc, "from IPython.display import SVG, HTML, Markdown\n"
                      f"display(SVG({svg!r}), display_id='pic')\n"
                      "display(HTML('<b>bold</b>'))\n"
                      "display(Markdown('*it*'))\n"
                      f"update_display(SVG({svg2!r}), display_id='pic')")
    validate_all(res)
    assert res.status == "ok", res
    types = [m["msg_type"] for m in res.outputs]
    assert types == ["display_data"] * 3 + ["update_display_data"], types
    data = [m["content"]["data"] for m in res.outputs]
    assert data[0] == {"image/svg+xml": svg, "text/plain": "<IPython.core.display.SVG object>"}
    assert data[1] == {"text/html": "<b>bold</b>",
                       "text/plain": "<IPython.core.display.HTML object>"}
    assert data[2] == {"text/markdown": "*it*",
                       "text/plain": "<IPython.core.display.Markdown object>"}
    assert data[3] == {"image/svg+xml": svg2, "text/plain": "<IPython.core.display.SVG object>"}
    assert res.outputs[0]["content"]["transient"] == {"display_id": "pic"}
    assert res.outputs[3]["content"]["transient"] == {"display_id": "pic"}


def test_display_updates_coalesced(kc):
    # a loop that updates two displays at every step: the kernel holds the latest update of each
    # id and sends them at most every 50 ms (or before other output, or when the cell ends), so
    # the client gets a few messages, not 2 x 20,000, and the last values always arrive
    code = ('display(-1, display_id="a")\ndisplay(-1, display_id="b")\n'
            'for i in range(20000):\n'
            '    update_display(i, display_id="a")\n'
            '    update_display(-i, display_id="b")\n'
            'print("done")')
    t0 = time.monotonic()
    res = execute(kc, code, timeout=120)
    elapsed = time.monotonic() - t0
    validate_all(res)
    assert res.status == "ok", res
    ups = res.of_type("update_display_data")
    # two ids, one message each per 50 ms window, and one more of each at the end
    assert len(ups) <= 2 * (elapsed / 0.05 + 2), (len(ups), elapsed)
    last = {}
    for u in ups:
        last[u["content"]["transient"]["display_id"]] = u["content"]["data"]["text/plain"]
    assert last == {"a": "19999", "b": "-19999"}, last
    assert res.stream() == "done\n"


def test_display_update_arrives_after_interrupt(kc):
    # an endless loop of updates, interrupted: the held last update still goes out before the
    # error, and no flood of messages
    msg_id = kc.execute('i = 0\ndisplay(0, display_id="d")\n'
                        'while true:\n    i = i + 1\n    update_display(i, display_id="d")')
    time.sleep(1.0)
    send_control(kc, "interrupt_request", {})
    res = mtkernel.finish(kc, msg_id, timeout=60)
    assert res.reply["content"]["ename"] == "KeyboardInterrupt", res
    ups = res.of_type("update_display_data")
    assert 1 <= len(ups) <= 200, len(ups)
    types = [m["msg_type"] for m in res.outputs]
    assert types.index("error") > max(i for i, t in enumerate(types) if t == "update_display_data")
    final = execute(kc, "i").result_text()
    assert ups[-1]["content"]["data"]["text/plain"] == final


def test_display_output_capped(kc):
    # 3,000 displays of a 10 kB string: the cell's displays stop at 10 MiB with one note, as
    # printed output does; the cell itself runs to the end
    res = execute(kc, 'for i in range(3000):\n    display("x" * 10000)\nprint("end")', timeout=120)
    assert res.status == "ok", res
    dd = res.of_type("display_data")
    sent = sum(len(d["content"]["data"]["text/plain"]) for d in dd)
    assert 9 << 20 <= sent <= 10 << 20, sent
    assert res.stream("stderr").count("[output truncated") == 1, res.stream("stderr")
    assert res.stream() == "end\n"
    # many small displays: at most 1,000 a cell
    res = execute(kc, 'for i in range(5000):\n    display(i, display_id="d")', timeout=120)
    dd = res.of_type("display_data")
    assert len(dd) == 1000, len(dd)
    assert [d["content"]["data"]["text/plain"] for d in dd[-2:]] == ["998", "999"]
    assert "[output truncated" in res.stream("stderr")
    # the limit is per cell
    res = execute(kc, 'display(7)')
    assert [d["content"]["data"]["text/plain"] for d in res.of_type("display_data")] == ["7"]
    assert res.stream("stderr") == ""


def test_clear_output(kc):
    res = execute(kc, 'print("a")\nclear_output()\nprint("b")\nclear_output(wait=true)\nprint("c")')
    validate_all(res)
    seq = [(m["msg_type"], m["content"].get("wait", m["content"].get("text")))
           for m in res.outputs]
    assert seq == [
        ("stream", "a\n"),
        ("clear_output", False),
        ("stream", "b\n"),
        ("clear_output", True),
        ("stream", "c\n"),
    ], seq


# --- completion / inspection / pager -----------------------------------------------------------


def test_complete_builtin_and_offsets(kc):
    msg_id = kc.complete("pri")
    r = get_reply(kc, msg_id)
    validate_message(r, "complete_reply", msg_id)
    assert r["content"]["matches"] == ["print"]
    assert (r["content"]["cursor_start"], r["content"]["cursor_end"]) == (0, 3)


def test_complete_offsets_in_code_points(kc):
    code = 'x = "é🙂"; pri'
    msg_id = kc.complete(code, cursor_pos=len(code))
    r = get_reply(kc, msg_id)
    assert r["content"]["matches"] == ["print"]
    assert r["content"]["cursor_end"] == len(code)
    assert r["content"]["cursor_start"] == len(code) - 3


def test_complete_mid_line(kc):
    code = "pri(1)"
    msg_id = kc.complete(code, cursor_pos=3)
    r = get_reply(kc, msg_id)
    assert "print" in r["content"]["matches"]
    assert r["content"]["cursor_start"] == 0
    assert r["content"]["cursor_end"] == 3


def test_complete_variables(kc):
    execute(kc, "myvar = 1\nmyvariable2 = 2")
    msg_id = kc.complete("myv")
    r = get_reply(kc, msg_id)
    assert sorted(r["content"]["matches"]) == ["myvar", "myvariable2"]
    msg_id = kc.complete("zzq_nothing_like_this")
    r = get_reply(kc, msg_id)
    validate_message(r, "complete_reply", msg_id)
    assert r["content"]["matches"] == []


def test_inspect(kc):
    msg_id = kc.inspect("print", cursor_pos=5)
    r = get_reply(kc, msg_id)
    validate_message(r, "inspect_reply", msg_id)
    assert r["content"]["status"] == "ok"
    assert r["content"]["found"] is True
    assert "print" in r["content"]["data"]["text/plain"]


def test_inspect_unknown(kc):
    msg_id = kc.inspect("zzq_nothing_like_this", cursor_pos=5)
    r = get_reply(kc, msg_id)
    validate_message(r, "inspect_reply", msg_id)
    assert r["content"]["found"] is False


def test_is_complete_indent(kc):
    msg_id = kc.is_complete("for i in range(3):")
    r = get_reply(kc, msg_id)
    validate_message(r, "is_complete_reply", msg_id)
    assert r["content"]["status"] == "incomplete"
    assert r["content"]["indent"] == "    "


def test_pager_payload(kc):
    res = execute(kc, "help(print)")
    validate_all(res)
    assert res.status == "ok"
    payload = res.content["payload"]
    assert len(payload) == 1, payload
    p = payload[0]
    assert p["source"] == "page"
    assert p["start"] == 0
    assert isinstance(p["data"]["text/plain"], str) and p["data"]["text/plain"]


def test_no_payload_normally(kc):
    assert execute(kc, "1").content["payload"] == []


# --- many requests in flight ------------------------------------------------------------------


def test_pipelined_requests_answered_in_order(kc):
    ids = [kc.execute(f"{i}*2") for i in range(50)]
    replies = []
    deadline = time.monotonic() + 20
    while len(replies) < len(ids) and time.monotonic() < deadline:
        m = kc.get_shell_msg(timeout=max(0.01, deadline - time.monotonic()))
        if m["parent_header"].get("msg_id") in ids:
            replies.append(m)
    assert [r["parent_header"]["msg_id"] for r in replies] == ids
    assert all(r["content"]["status"] == "ok" for r in replies)
    for i, msg_id in enumerate(ids):
        io = collect_iopub(kc, msg_id)
        res = [m for m in io if m["msg_type"] == "execute_result"]
        assert res and res[0]["content"]["data"]["text/plain"] == str(2 * i)


def test_output_flood_not_lost(kc):
    """A cell printing 20000 lines: every line and the final idle arrive. (A kernel that sends
    one iopub message per print can overrun the XPUB high-water mark, which silently drops
    messages, the idle included, and then the frontend waits forever.)"""
    n = 20000
    res = execute(kc, f"for i in range({n}):\n    print(i)", timeout=30)
    assert res.status == "ok"
    out = res.stream()
    expected = "".join(f"{i}\n" for i in range(n))
    assert out == expected, f"got {len(out)} of {len(expected)} characters"
