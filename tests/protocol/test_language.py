"""The language's tooling and rich output through a real Jupyter client: functions across
cells and their tracebacks, tensor display bundles (text/html), magics' stream text and
display bundles, keyword completion, inspect and is_complete for blocks."""

from __future__ import annotations

import re

from jupyter_kernel_test.msgspec_v5 import validate_message

from mtkernel import execute, get_reply, timing_lines

DURATION = r"[0-9.]+ (ns|µs|ms|s)"


def validate_all(res) -> None:
    validate_message(res.reply, "execute_reply", res.msg_id)
    for m in res.iopub:
        validate_message(m, m["msg_type"], res.msg_id)


def test_function_defined_in_one_cell_used_in_another(kc):
    r = execute(kc, 'def halve(x):\n    "half of x"\n    return x / 2\n')
    assert r.status == "ok"
    defined_in = r.reply["content"]["execution_count"]
    r = execute(kc, "halve(9)")
    assert r.result_text() == "4.5"
    r = execute(kc, "y = 1\nhalve('a')")
    validate_all(r)
    err = r.error()
    assert err["ename"] == "TypeError"
    # the traceback shows the calling line, then the line inside the function, each in the
    # cell (In[n]) it was written in, as IPython's do
    tb = "\n".join(err["traceback"])
    called_in = r.reply["content"]["execution_count"]
    assert called_in == defined_in + 2
    assert f"Cell In[{called_in}], line 2, column 1:\n    halve('a')" in tb
    assert f"Cell In[{defined_in}], line 3, column 14, in halve():\n        return x / 2" in tb
    assert r.content["ename"] == "TypeError"
    # a cell kept out of the history has no In[n]
    r = execute(kc, "halve('b')", store_history=False)
    tb = "\n".join(r.error()["traceback"])
    assert "  Cell line 1, column 1:\n    halve('b')" in tb
    assert f"Cell In[{defined_in}], line 3, column 14, in halve():" in tb


def test_tensor_result_has_html_table(kc):
    r = execute(kc, "tensor([[1, 2], [3, 4]])")
    validate_all(r)
    data = r.of_type("execute_result")[0]["content"]["data"]
    assert data["text/plain"].startswith("tensor([[1., 2.],")
    html = data["text/html"]
    assert html.count("<td>") == 4 and "<td>4.</td>" in html
    assert "shape (2, 2) &middot; strides (2, 1) &middot; backend fast" in html


def test_time_and_timeit_print_fixed_formats(kc):
    execute(kc, "a = rand(64, 64)")
    r = execute(kc, "%time b = a @ a")
    assert re.fullmatch(rf"Wall time: {DURATION} \(one run; matmul on fast: [0-9.]+ GFLOP/s\)\n",
                        timing_lines(r.stream())), r
    r = execute(kc, "%timeit -n 2 -r 3 a + a")
    assert re.fullmatch(rf"{DURATION} ± {DURATION} per loop \(median ± median absolute "
                        r"deviation of 3 runs, 2 loops each\)\n", timing_lines(r.stream())), r
    r = execute(kc, "%time 2 + 3")
    assert r.result_text() == "5"


def test_diagnostics_display_bundle(kc):
    execute(kc, "p = rand(8, 16)\nq = rand(16)")
    r = execute(kc, "%diagnostics p * q")
    validate_all(r)
    displays = r.of_type("display_data")
    assert len(displays) == 1
    data = displays[0]["content"]["data"]
    assert data["text/plain"].startswith("1 engine op\n")
    assert "(8, 16), (16,) -> (8, 16)" in data["text/plain"]
    assert "<table" in data["text/html"] and "broadcast" in data["text/html"]


def test_unknown_magic_lists_known(kc):
    r = execute(kc, "%nosuch")
    err = r.error()
    assert err["ename"] == "UsageError"
    for name in ("%time", "%timeit", "%diagnostics", "%who", "%reset", "%lsmagic"):
        assert name in err["evalue"]


def test_complete_keyword_parameters(kc):
    execute(kc, "def area(width, height=1):\n    return width * height")
    code = "area(2, hei"
    msg_id = kc.complete(code, cursor_pos=len(code))
    r = get_reply(kc, msg_id)
    validate_message(r, "complete_reply", msg_id)
    assert r["content"]["matches"] == ["height="]
    assert r["content"]["cursor_start"] == len("area(2, ")
    code = "z = zeros(3, requires_"
    r = get_reply(kc, kc.complete(code, cursor_pos=len(code)))
    assert r["content"]["matches"] == ["requires_grad="]


def test_inspect_tensor_and_function(kc):
    execute(kc, "w = ones(2, 3).permute(1, 0)\ndef f(x, k=2):\n    \"scales\"\n    return x * k")
    msg_id = kc.inspect("w", cursor_pos=1)
    r = get_reply(kc, msg_id)
    validate_message(r, "inspect_reply", msg_id)
    assert r["content"]["found"] is True
    text = r["content"]["data"]["text/plain"]
    assert "shape (3, 2), strides (1, 3), dtype float32, backend fast" in text
    r = get_reply(kc, kc.inspect("f(w, ", cursor_pos=5))
    assert r["content"]["data"]["text/plain"].startswith("f(x, k=...)\n\nscales")


def test_is_complete_for_def_blocks(kc):
    for code, status in (("def f(x):", "incomplete"), ("def f(x):\n    return x\n\n", "complete"),
                         ("def f(x,", "incomplete"), ("def f(x):\n    return (x +", "incomplete")):
        msg_id = kc.is_complete(code)
        r = get_reply(kc, msg_id)
        validate_message(r, "is_complete_reply", msg_id)
        assert r["content"]["status"] == status, (code, r["content"])
    r = get_reply(kc, kc.is_complete("def f(x):"))
    assert r["content"]["indent"] == "    "


def test_dataset_shows_summary_and_scatter(kc):
    import xml.etree.ElementTree as ET

    execute(kc, "%plot_renderer auto")
    r = execute(kc, 'ds = dataset("xor", n=40, seed=5)\nds')
    validate_all(r)
    data = r.of_type("execute_result")[0]["content"]["data"]
    assert set(data) == {"text/plain", "application/vnd.vegalite.v5+json", "image/svg+xml"}
    assert re.fullmatch(r"dataset\('xor', n=40\): 40 points, \d+ of class 1, \d+ of class 0",
                        data["text/plain"])
    spec = data["application/vnd.vegalite.v5+json"]
    assert spec["mark"]["type"] == "point" and len(spec["data"]["values"]) == 40
    assert spec["encoding"]["color"]["scale"]["range"] == ["#69bac9", "#ea8484"]
    root = ET.fromstring(data["image/svg+xml"])
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # the dataset's tensors through attributes; completion offers them
    assert execute(kc, "ds.X.shape").result_text() == "(40, 2)"
    reply = get_reply(kc, kc.complete("ds.", 3))
    assert {"X", "y", "n", "name"} <= set(reply["content"]["matches"])


def test_train_live_progress_then_boundary_and_loss_curve(kc):
    import xml.etree.ElementTree as ET

    execute(kc, "%plot_renderer auto")
    r = execute(kc, 'ds = dataset("split", 50, seed=2)\nm = mlp(2, 10, 1)\n'
                    'train(m, ds, rate=0.5, epochs=30, log=10)')
    validate_all(r)
    # one live display: created by display_data, replaced in place by update_display_data
    first = r.of_type("display_data")[0]["content"]
    live_id = first["transient"]["display_id"]
    assert first["data"]["text/plain"].endswith("epoch 0/30 starting")
    updates = r.of_type("update_display_data")
    assert updates and all(u["content"]["transient"]["display_id"] == live_id for u in updates)
    assert updates[-1]["content"]["data"]["text/plain"].endswith("epoch 30/30 done")
    out = "".join(m["content"]["text"] for m in r.of_type("stream"))
    assert re.findall(r"^Epoch (\d+)  loss [0-9.e+-]+  correct \d+/50  time per epoch [0-9.]+ (us|ms|s)$",
                      out, re.M) and [int(e) for e in re.findall(r"^Epoch (\d+) ", out, re.M)] == [0, 10, 20]
    assert re.search(r"^Trained 30 of 30 epochs on \w+ \((fused step|autodiff ops)\): loss [0-9.]+, "
                     r"correct \d+/50, time per epoch .+$", out, re.M)
    # then one plain display: the decision boundary over the loss curve over the time per
    # epoch (a Vega-Lite vconcat of the three, SVG of three panels)
    finals = [d["content"]["data"] for d in r.of_type("display_data")[1:]]
    assert len(finals) == 1
    (chart,) = finals
    assert chart["text/plain"] == ("<training chart: 30 epochs on split: decision boundary, loss "
                                   "and time per epoch>")
    boundary, curve, times = chart["application/vnd.vegalite.v5+json"]["vconcat"]
    rects, points = boundary["layer"]
    assert len(rects["data"]["values"]) == 25 * 25 and len(boundary["data"]["values"]) == 50
    assert all(0.0 <= c["p"] <= 1.0 for c in rects["data"]["values"])
    assert rects["encoding"]["color"]["scale"]["range"] == ["#69bac9", "#ea8484"]
    svg = ET.fromstring(chart["image/svg+xml"])
    assert svg.tag == "{http://www.w3.org/2000/svg}svg" and len(svg.findall("{*}g")) == 3
    assert len(curve["data"]["values"]) == 30 and len(times["data"]["values"]) == 30
    assert all(v["y"] > 0 for v in times["data"]["values"])
    # the model kept its training: its predictions give the reported count
    correct = int(re.search(r"correct (\d+)/50, time", out).group(1))
    got = execute(kc, "((m(ds.X).view(50) > 0.5) == ds.y).sum()[0]").result_text()
    assert float(got) == correct


def test_train_long_run_shows_the_boundary_forming_then_interrupt_keeps_the_model(start_kernel):
    """A run longer than a second refreshes a live decision-boundary chart (at most once a
    second, cleared at the end for the final chart); an interrupt stops training between
    batches, still shows the summary and charts, raises KeyboardInterrupt, and the model keeps
    every step taken."""
    import time
    import xml.etree.ElementTree as ET

    from mtkernel import KERNEL_NAME, collect_iopub, send_control, wait_started

    km, kc = start_kernel(KERNEL_NAME)
    execute(kc, "%backend simple")  # milliseconds an epoch at hidden 100: a run to watch
    execute(kc, 'ds = dataset("split", 50, seed=2)\nm = mlp(2, 100, 1)')
    before = execute(kc, "m(ds.X).sum()[0]").result_text()
    msg_id = kc.execute("train(m, ds, epochs=100000, log=0)")
    wait_started(kc, msg_id)
    time.sleep(2.5)
    ctl_id = send_control(kc, "interrupt_request", {})
    reply = get_reply(kc, msg_id, timeout=10)
    assert get_reply(kc, ctl_id, channel="control")["content"]["status"] == "ok"
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt"
    iopub = collect_iopub(kc, msg_id)
    # the live display: the progress bar, the boundary's drawing under it once a second has
    # passed, all in one display updated in place (so the log below it never moves)
    displays = [m["content"] for m in iopub
                if m["msg_type"] in ("display_data", "update_display_data")
                and m["content"]["transient"].get("display_id")]
    assert len({d["transient"]["display_id"] for d in displays}) == 1
    live = [d for d in displays if "<svg" in d["data"].get("text/html", "")]
    assert live, "no live boundary chart in a run of more than a second"
    html = live[0]["data"]["text/html"]
    assert html.index("<progress") < html.index("<svg") and ">decision boundary at epoch " in html
    assert ET.fromstring(html[html.index("<svg"):html.index("</svg>") + 6]).tag.endswith("svg")
    assert "<svg" not in displays[-1]["data"]["text/html"]  # gone: the final chart follows
    out = "".join(m["content"]["text"] for m in iopub if m["msg_type"] == "stream")
    done = int(re.search(r"^Interrupted after (\d+) of 100000 epochs on simple", out, re.M).group(1))
    assert 10 < done < 100000
    assert any(m["msg_type"] == "display_data" and not m["content"]["transient"] and
               re.match(r"<training chart: \d+ epochs? on split: decision boundary",
                        m["content"]["data"]["text/plain"])
               for m in iopub)
    assert km.is_alive()
    after = execute(kc, "m(ds.X).sum()[0]").result_text()
    assert after != before  # trained, and usable


def test_package_file_cells(kc):
    # a file of the package is a cell: its errors are located in it (In[n]), a failed first
    # run leaves no module behind, as a failed import leaves none
    r = execute(kc, "%%minitorch_file proto_ops.py\n"
                    "def double(x):\n"
                    "    return x * 2 + missing\n")
    validate_all(r)
    assert r.status == "ok" and r.stream() == "" and r.result_text() is None
    defined_in = r.reply["content"]["execution_count"]
    r = execute(kc, "from minitorch.proto_ops import double\ndouble(1)")
    err = r.error()
    assert err["ename"] == "NameError"
    tb = "\n".join(err["traceback"])
    assert f"Cell In[{defined_in}] (minitorch/proto_ops.py), line 3, column 20, in double():" in tb
    r = execute(kc, "%%minitorch_file proto_broken.py\nx = 1\nraise ValueError('half done')\n")
    assert r.error()["ename"] == "ValueError"
    tb = "\n".join(r.error()["traceback"])
    assert "line 3, column 1:\n    raise ValueError('half done')" in tb
    r = execute(kc, "import minitorch.proto_broken")
    assert r.error()["ename"] == "ModuleNotFoundError"
    # the kernel's minitorch is unchanged where no file replaces it
    r = execute(kc, "import minitorch\nminitorch.tensor([1, 2]).shape")
    assert r.result_text() == "(2,)"
