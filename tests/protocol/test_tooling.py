"""The Jupyter tooling through a real client: complete_request (every context, cursor offsets in
code points with non-ASCII text before the cursor, odd requests that must not hurt the kernel),
inspect_request (builtins, methods, magics, variables, functions, detail levels, found
true/false), is_complete_request (complete, incomplete with the indent, invalid, and a
line-by-line console session), and the display bundles of tensors (text/plain and text/html)."""

from __future__ import annotations

from jupyter_kernel_test.msgspec_v5 import validate_message

from mtkernel import execute, get_reply, send_shell


def complete(kc, code: str, cursor_pos: int | None = None) -> dict:
    msg_id = kc.complete(code, cursor_pos=len(code) if cursor_pos is None else cursor_pos)
    r = get_reply(kc, msg_id)
    validate_message(r, "complete_reply", msg_id)
    assert r["content"]["status"] == "ok"
    return r["content"]


def inspect(kc, code: str, cursor_pos: int | None = None, detail_level: int = 0) -> dict:
    pos = len(code) if cursor_pos is None else cursor_pos
    msg_id = kc.inspect(code, cursor_pos=pos, detail_level=detail_level)
    r = get_reply(kc, msg_id)
    validate_message(r, "inspect_reply", msg_id)
    assert r["content"]["status"] == "ok"
    return r["content"]


def is_complete(kc, code: str) -> dict:
    msg_id = kc.is_complete(code)
    r = get_reply(kc, msg_id)
    validate_message(r, "is_complete_reply", msg_id)
    return r["content"]


# --- complete_request ----------------------------------------------------------------------------


def test_complete_names_keywords_and_user_functions(kc):
    execute(kc, "learning_rate = 0.1\ndef learn(steps, rate=0.5):\n    return steps")
    c = complete(kc, "lear")
    assert c["matches"] == ["learn", "learning_rate"]
    assert (c["cursor_start"], c["cursor_end"]) == (0, 4)
    assert complete(kc, "whi")["matches"] == ["while"]
    assert complete(kc, "x = ze")["matches"] == ["zeros"]
    # keyword parameters inside a call: a builtin's, a user function's, a tensor method's
    c = complete(kc, "t = zeros(2, requires_g")
    assert c["matches"] == ["requires_grad="]
    assert c["cursor_start"] == len("t = zeros(2, ")
    assert complete(kc, "learn(3, ra")["matches"] == ["raise", "rand", "range", "rate="]


def test_complete_tensor_attributes(kc):
    execute(kc, "w = ones(2, 3)\nxs = [1, 2]")
    c = complete(kc, "w.")
    assert {"sum", "mean", "backward", "view", "permute", "shape", "strides", "grad",
            "requires_grad", "backend"} <= set(c["matches"])
    assert "print" not in c["matches"]
    assert (c["cursor_start"], c["cursor_end"]) == (2, 2)
    c = complete(kc, "w.sh")
    assert c["matches"] == ["shape"]
    assert (c["cursor_start"], c["cursor_end"]) == (2, 4)
    assert complete(kc, "w.sum(di")["matches"] == ["dict", "dim=", "dir", "display", "divmod"]
    # a list's methods; nothing for a number
    assert complete(kc, "xs.ap")["matches"] == ["append"]
    assert complete(kc, "xs.")["matches"] == ["append", "clear", "copy", "count", "extend",
                                              "index", "insert", "pop", "remove", "reverse",
                                              "sort"]
    execute(kc, "k = 3")
    assert complete(kc, "k.")["matches"] == []


def test_complete_magics(kc):
    c = complete(kc, "%ti")
    assert c["matches"] == ["time", "timeit"]
    assert (c["cursor_start"], c["cursor_end"]) == (1, 3)
    assert "lsmagic" in complete(kc, "%")["matches"]
    assert complete(kc, "%backend ")["matches"] == ["cuda", "fast", "simple", "student"]
    assert complete(kc, "%time pri")["matches"] == ["print"]


def test_complete_nothing_in_strings_and_comments(kc):
    assert complete(kc, 'print("pri')["matches"] == []
    assert complete(kc, "x = 1  # pri")["matches"] == []
    assert complete(kc, "s = 'a' + pri")["matches"] == ["print"]


def test_complete_offsets_count_code_points(kc):
    # "é" is 2 bytes and 1 code point; "🙂" 4 bytes, 1 code point (2 UTF-16 units)
    execute(kc, "w = ones(2)")
    code = 's = "é🙂 naïve"; w.su'
    c = complete(kc, code)
    assert c["matches"] == ["sum"]
    assert (c["cursor_start"], c["cursor_end"]) == (len(code) - 2, len(code))
    # a cursor in the middle of non-ASCII text
    code = "ü = 1; pri + ö"
    c = complete(kc, code, cursor_pos=len("ü = 1; pri"))
    assert c["matches"] == ["print"]
    assert (c["cursor_start"], c["cursor_end"]) == (len("ü = 1; "), len("ü = 1; pri"))
    # a multi-line cell: offsets count from the start of the cell
    code = "# é\nzz = 'ß'\nprint(zz)\npri"
    c = complete(kc, code)
    assert c["matches"] == ["print"]
    assert c["cursor_start"] == len(code) - 3


def test_complete_odd_requests_leave_the_kernel_well(kc):
    for code, pos in (("", 0), ("pri", 0), ("pri", 1000), ("(((", 3), ("'''", 3),
                      ("x.\n.\n%", 5), ("\\", 1), ("é" * 50, 25)):
        c = complete(kc, code, cursor_pos=pos)
        assert 0 <= c["cursor_start"] <= c["cursor_end"] <= len(code)
    # malformed content: a wrong type or a missing field still gets a reply (an odd cursor is
    # taken as the end of the code; code that is not a string is an error reply)
    for content in ({"code": "pri", "cursor_pos": -5}, {"code": "pri", "cursor_pos": "x"}):
        msg_id = send_shell(kc, "complete_request", content)
        r = get_reply(kc, msg_id)
        assert r["content"]["status"] == "ok"
        assert isinstance(r["content"]["matches"], list)
    for content in ({"code": 12}, {}):
        msg_id = send_shell(kc, "complete_request", content)
        r = get_reply(kc, msg_id)
        assert r["content"]["status"] == "error"
        assert r["content"]["ename"] == "TypeError"
    assert execute(kc, "6 * 7").result_text() == "42"


# --- inspect_request -----------------------------------------------------------------------------


def test_inspect_builtins_methods_and_magics(kc):
    r = inspect(kc, "zeros")
    assert r["found"] is True
    text = r["data"]["text/plain"]
    assert text.startswith("zeros(*shape, requires_grad=false, backend=none)\n\n")
    execute(kc, "w = ones(2)")
    text = inspect(kc, "w.backward")["data"]["text/plain"]
    assert text.startswith("tensor.backward(grad=none)\n\nBackpropagates")
    text = inspect(kc, "%timeit")["data"]["text/plain"]
    assert text.startswith("%timeit") and "median" in text
    # the call around the cursor when the word under it is unknown (shift-tab in a call)
    r = inspect(kc, "rand(2, requires_grad")
    assert r["found"] is True and r["data"]["text/plain"].startswith("rand(*shape")


def test_inspect_variables(kc):
    execute(kc, "v = tensor([[1, 2], [3, 4]], requires_grad=true)\n(v * v).sum().backward()\n"
                "vt = v.permute(1, 0)\nname = 'Ada'")
    text = inspect(kc, "v")["data"]["text/plain"]
    assert text.startswith("v: tensor = tensor([[1., 2.],")
    assert text.endswith("shape (2, 2), strides (2, 1), dtype float32, backend fast, "
                         "requires_grad True, grad set")
    text = inspect(kc, "vt")["data"]["text/plain"]
    assert "shape (2, 2), strides (1, 2)" in text and text.endswith("grad None")
    assert inspect(kc, "name")["data"]["text/plain"] == "name: str = 'Ada'"
    # detail level 1 adds the type's documentation
    text = inspect(kc, "v", detail_level=1)["data"]["text/plain"]
    assert "Methods (help(x.name) tells more):" in text


def test_inspect_function_source_and_non_ascii_cursor(kc):
    execute(kc, 'def greet(who="wörld"):\n    "says hello"\n    return "héllo " + who\n')
    text = inspect(kc, "greet")["data"]["text/plain"]
    assert text.startswith("greet(who=...)\n\nsays hello")
    assert "Source:" not in text
    text = inspect(kc, "greet", detail_level=1)["data"]["text/plain"]
    assert text.endswith('Source:\ndef greet(who="wörld"):\n    "says hello"\n'
                         '    return "héllo " + who')
    # the cursor counts code points: on "greet" after non-ASCII text
    code = 's = "ñ🙂"; greet(s)'
    r = inspect(kc, code, cursor_pos=code.index("greet") + 2)
    assert r["found"] is True and r["data"]["text/plain"].startswith("greet(")


def test_inspect_not_found(kc):
    for code in ("nothing_called_this", "", "if", "42", "x = 1  # print"):
        r = inspect(kc, code)
        assert r["found"] is False, code
        assert r["data"] == {}


# --- is_complete_request -------------------------------------------------------------------------


def test_is_complete_statuses(kc):
    cases = [
        ("x = 1", "complete", None),
        ("for i in range(3):", "incomplete", "    "),
        ("for i in range(3):\n    if i:", "incomplete", "        "),
        ("def f(x):\n    return x", "incomplete", "    "),
        ("def f(x):\n    return x\n\n", "complete", None),
        ("xs = [1,", "incomplete", ""),
        ('s = """doc', "incomplete", ""),
        ("1 $ 2", "invalid", None),
        ('print("unterminated', "invalid", None),
        ("x = = 1", "invalid", None),
        # a file cell goes on until an empty line, as IPython's cell magics do
        ("%%minitorch_file ops.py", "incomplete", ""),
        ("%%minitorch_file ops.py\nx = 1\n", "incomplete", ""),
        ("%%minitorch_file ops.py\nx = 1\n\n", "complete", None),
    ]
    for code, status, indent in cases:
        c = is_complete(kc, code)
        assert c["status"] == status, (code, c)
        if indent is not None:
            assert c["indent"] == indent, (code, c)
        else:
            assert "indent" not in c


def test_console_line_by_line(kc):
    """What jupyter console does on Enter: ask whether the buffer is complete; if not, add a
    newline and the indent the kernel gave, after which the user types (backspacing over one
    level of the indent to dedent); run the buffer once it is complete."""
    typed = [("def double(x):", 0), ("if x > 0:", 0), ("return x * 2", 0), ("return 0", 1),
             ("", 0)]
    buf, seen = "", []
    for text, dedents in typed:
        buf = buf[: len(buf) - 4 * dedents] + text
        c = is_complete(kc, buf)
        seen.append((c["status"], c.get("indent")))
        if c["status"] == "complete":
            break
        buf += "\n" + c["indent"]
    assert seen == [("incomplete", "    "), ("incomplete", "        "),
                    ("incomplete", "        "), ("incomplete", "    "), ("complete", None)]
    r = execute(kc, buf)
    assert r.status == "ok", r
    assert execute(kc, "print(double(4), double(-1))").stream() == "8 0\n"


# --- display bundles -----------------------------------------------------------------------------


def data_of(r, kind: str = "execute_result") -> dict:
    msgs = r.of_type(kind)
    assert len(msgs) == 1, r
    validate_message(msgs[0], kind, r.msg_id)
    return msgs[0]["content"]["data"]


def test_tensor_bundle_small_table(kc):
    data = data_of(execute(kc, "tensor([[1, 2.5], [3, -4]], requires_grad=true)"))
    assert set(data) == {"text/plain", "text/html"}
    assert data["text/plain"] == ("tensor([[ 1.0000,  2.5000],\n"
                                  "        [ 3.0000, -4.0000]], shape=(2, 2), backend=fast, "
                                  "requires_grad=True)")
    html = data["text/html"]
    assert ("<tr><th></th><th>0</th><th>1</th></tr>"
            "<tr><th>0</th><td>1.0000</td><td>2.5000</td></tr>"
            "<tr><th>1</th><td>3.0000</td><td>-4.0000</td></tr>") in html
    assert ("shape (2, 2) &middot; strides (2, 1) &middot; backend fast &middot; "
            "requires_grad True (leaf)") in html


def test_tensor_bundle_summaries(kc):
    execute(kc, "big = ones(25, 30)")
    data = data_of(execute(kc, "big"))
    # 750 elements: the text and the table show them all (the table in a box that scrolls)
    assert data["text/plain"].count("1.") == 750 and "..." not in data["text/plain"]
    html = data["text/html"]
    assert html.count("<tr>") == 26 and html.count("<td>1.</td>") == 750
    assert "&hellip;" not in html and "&#8942;" not in html
    assert 'style="overflow-x:auto"' in html and "white-space:nowrap" in html
    # past 1,000 both leave out the same: rows and columns 3 to 36 of 40 x 40
    data = data_of(execute(kc, "ones(40, 40)"))
    html = data["text/html"]
    assert html.count("<tr>") == 8 and html.count("<td>1.</td>") == 36
    assert "<th>2</th><th>&hellip;</th><th>37</th>" in html
    assert "<tr><th>&#8942;</th>" in html and "<th>3</th>" not in html
    assert data["text/plain"].count("1.") == 36
    # past 1,000 elements the text keeps 3 entries at each end of each dim
    text = data_of(execute(kc, "ones(1001)"))["text/plain"]
    assert text == "tensor([1., 1., 1.,  ..., 1., 1., 1.], shape=(1001,), backend=fast)", text


def test_tensor_bundle_empty_deep_and_view(kc):
    html = data_of(execute(kc, "zeros(0, 3)"))["text/html"]
    assert '<pre style="white-space:pre">tensor([], shape=(0, 3), backend=fast)</pre>' in html
    html = data_of(execute(kc, "ones(2, 1, 2)"))["text/html"]
    assert "<table" not in html and '">tensor([[[1., 1.]],\n\n' in html
    html = data_of(execute(kc, "tensor([[1, 2, 3], [4, 5, 6]]).permute(1, 0)"))["text/html"]
    assert "<tr><th>2</th><td>3.</td><td>6.</td></tr>" in html
    assert "shape (3, 2) &middot; strides (1, 3)" in html
    html = data_of(execute(kc, "tensor([1, 0, -1]) / 0"))["text/html"]
    assert "<td>inf</td><td>nan</td><td>-inf</td>" in html


def test_display_data_and_other_values(kc):
    r = execute(kc, "display(ones(2))\nprint('between')\n[1, 'a', none]")
    data = data_of(r, "display_data")
    assert data["text/plain"] == "tensor([1., 1.], shape=(2,), backend=fast)"
    assert "<td>1.</td><td>1.</td>" in data["text/html"]
    assert data_of(r) == {"text/plain": "[1, 'a', None]"}
    for code, text in (("2.5", "2.5"), ("'<b>'", "'<b>'"), ("true", "True"),
                       ("print", "<built-in function print>"), ("range(2)", "range(0, 2)")):
        assert data_of(execute(kc, code)) == {"text/plain": text}, code


def test_complete_names_from_package_files(kc):
    # a file a cell wrote completes as a module of its own, and what its star import gives
    # minitorch completes after `minitorch.`
    r = execute(kc, "%%minitorch_file scalar_functions.py\n"
                    "class ScalarFunctionDemo:\n    pass\n"
                    "def scale_demo(x):\n    return x\n_hidden_demo = 1\n")
    assert r.status == "ok"
    execute(kc, "import minitorch")
    assert complete(kc, "minitorch.scalar_functions.scale_d")["matches"] == ["scale_demo"]
    assert complete(kc, "minitorch.ScalarFunctionD")["matches"] == ["ScalarFunctionDemo"]
    assert complete(kc, "minitorch.scalar_f")["matches"] == ["scalar_functions"]
    assert complete(kc, "minitorch._hidden_d")["matches"] == []
    r = execute(kc, "print('scale_demo' in dir(minitorch), '_hidden_demo' in dir(minitorch), "
                    "'scalar_functions' in dir(minitorch))")
    assert r.stream() == "True False True\n"
