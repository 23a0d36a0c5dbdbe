"""compare() and timing() through a real Jupyter client: each shows two display_data messages,
the table (text/plain + text/html) and the chart (Vega-Lite v5 and SVG, chosen by
%plot_renderer, never beside text/html); the Vega-Lite spec is structurally valid (mark,
encoding fields present in data.values), the SVG parses as XML, unavailable backends are listed,
timing() lists every size, an interrupt stops a long timing and leaves the variables alone."""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET

from jupyter_kernel_test.msgspec_v5 import validate_message

from mtkernel import execute, finish, wait_started

VEGALITE = "application/vnd.vegalite.v5+json"
SVG_NS = "{http://www.w3.org/2000/svg}"
DURATION = r"[0-9.]+ (ns|µs|ms|s)"


def displays(r) -> list[dict]:
    validate_message(r.reply, "execute_reply", r.msg_id)
    for m in r.iopub:
        validate_message(m, m["msg_type"], r.msg_id)
    assert r.status == "ok", r
    assert not r.of_type("execute_result"), "compare/timing return none"
    return [m["content"]["data"] for m in r.of_type("display_data")]


def check_vegalite(spec: dict, mark: str) -> None:
    """What a Vega-Lite renderer needs: the v5 schema, a mark, and encodings whose fields the
    inline data rows have, with types Vega-Lite knows."""
    assert spec["$schema"] == "https://vega.github.io/schema/vega-lite/v5.json"
    m = spec["mark"]
    assert (m if isinstance(m, str) else m["type"]) == mark
    rows = spec["data"]["values"]
    assert isinstance(rows, list) and rows
    for channel, enc in spec["encoding"].items():
        assert channel in ("x", "y", "color"), channel
        assert enc["type"] in ("quantitative", "nominal", "ordinal", "temporal")
        assert isinstance(enc.get("title"), str) and enc["title"]
        for row in rows:
            assert enc["field"] in row, (channel, row)
            if enc["type"] == "quantitative":
                assert isinstance(row[enc["field"]], (int, float))
    assert 0 < spec["width"] <= 800 and 0 < spec["height"] <= 600


def check_svg(text: str) -> ET.Element:
    root = ET.fromstring(text)  # well-formed XML, or this raises
    assert root.tag == SVG_NS + "svg"
    assert not list(root.iter(SVG_NS + "script"))  # self-contained: no scripts
    return root


def test_compare_bundles(kc):
    execute(kc, "%plot_renderer auto\nseed(0)\na = rand(24, 24)\nb = rand(24, 24)")
    r = execute(kc, 'compare("(a @ b).relu()")')
    table, chart = displays(r)
    assert set(table) == {"text/plain", "text/html"}
    lines = table["text/plain"].splitlines()
    assert lines[0] == "compare: (a @ b).relu()"
    assert lines[1].split() == ["backend", "time", "per", "run", "runs", "speed-up", "agrees"]
    # the median of the batches and half their range, as a share of it
    spread = r"± (\d+|<1)%"
    assert re.match(rf"simple +{DURATION} {spread} +\d+ × \d+ +1\.00x +reference$", lines[2]), \
        lines[2]
    assert re.match(rf"fast +{DURATION} {spread} +\d+ × \d+ +[0-9.]+x +yes \(max \|diff\| ",
                    lines[3])
    assert re.match(r"cuda +unavailable: \S", lines[4]), lines[4]
    ET.fromstring("<div>" + table["text/html"] + "</div>")  # well-formed markup too
    assert "<td>cuda</td>" in table["text/html"]

    assert set(chart) == {"text/plain", VEGALITE, "image/svg+xml"}
    spec = chart[VEGALITE]
    check_vegalite(spec, "bar")
    assert [v["label"] for v in spec["data"]["values"]] == ["simple", "fast"]
    assert spec["encoding"]["x"]["scale"]["domain"] == ["simple", "fast", "cuda"]
    svg = check_svg(chart["image/svg+xml"])
    assert len([e for e in svg.iter(SVG_NS + "rect") if e.get("fill") == "#4c78a8"]) == 2
    texts = [e.text for e in svg.iter(SVG_NS + "text")]
    assert "cuda" in texts and "unavailable" in texts

    # the user's variables are as they were
    r = execute(kc, "[a.backend, a.shape, zeros(1).backend]")
    assert r.result_text() == "['fast', (24, 24), 'fast']"


def test_compare_errors_keep_variables(kc):
    execute(kc, "n = 5\nt = tensor([1, 2])")
    r = execute(kc, 'compare("t[0] = 9\\nn = n + 1\\nt @ zeros(3)")')
    assert r.status == "error"
    assert r.error()["ename"] == "ShapeError"
    assert "(in compare's statement on simple)" in r.error()["evalue"]
    assert execute(kc, "[n, t.tolist()]").result_text() == "[5, [1.0, 2.0]]"
    r = execute(kc, 'compare("t", backends=["tpu"])')
    assert r.error()["ename"] == "ValueError"


def test_renderer_choices(kc):
    execute(kc, "x = rand(8)")
    expected = {"vegalite": {"text/plain", VEGALITE}, "svg": {"text/plain", "image/svg+xml"},
                "html": {"text/plain", "text/html"},
                "auto": {"text/plain", VEGALITE, "image/svg+xml"}}
    for renderer, mimes in expected.items():
        execute(kc, f"%plot_renderer {renderer}")
        table, chart = displays(execute(kc, 'compare("x * 2", backends=["fast", "simple"])'))
        assert set(chart) == mimes, renderer
        assert set(table) == {"text/plain", "text/html"}
    execute(kc, "%plot_renderer html")
    _, chart = displays(execute(kc, 'compare("x * 2", backends=["fast"])'))
    html = chart["text/html"]
    assert html.startswith('<div class="minitorch-chart">\n<svg ')
    assert "vega-embed" in html and html.count("</script>") == 1
    execute(kc, "%plot_renderer auto")


def test_timing_lists_every_size(kc):
    r = execute(kc, 'timing(sizes=[8, 16, 32], backends=["simple", "fast", "cuda"])')
    table, chart = displays(r)
    lines = table["text/plain"].splitlines()
    assert lines[0].startswith("timing: x @ y, x and y = rand(2, n, n)")
    assert lines[1].split() == ["n", "simple", "fast", "cuda"]
    for line, n in zip(lines[2:5], (8, 16, 32)):
        assert re.fullmatch(rf" *{n}  {DURATION} +{DURATION} +unavailable", line), line
    assert lines[5].startswith("cuda unavailable: ")
    spec = chart[VEGALITE]
    check_vegalite(spec, "line")
    assert spec["encoding"]["x"]["scale"]["type"] == "log"
    assert spec["encoding"]["y"]["scale"]["type"] == "log"
    rows = spec["data"]["values"]
    assert sorted({(v["series"], v["x"]) for v in rows}) == sorted(
        (s, n) for s in ("simple", "fast") for n in (8, 16, 32))
    assert all(v["y"] > 0 for v in rows)
    assert spec["encoding"]["color"]["scale"]["domain"] == ["simple", "fast", "cuda"]
    svg = check_svg(chart["image/svg+xml"])
    assert len(list(svg.iter(SVG_NS + "polyline"))) == 2


def _interrupted(km, kc, cell: str):
    msg_id = kc.execute(cell)
    wait_started(kc, msg_id)
    time.sleep(0.3)
    t0 = time.monotonic()
    km.interrupt_kernel()
    r = finish(kc, msg_id)
    assert time.monotonic() - t0 < 2.0
    assert r.error()["ename"] == "KeyboardInterrupt", r
    return r


def test_interrupt_stops_compare_and_timing(start_kernel):
    km, kc = start_kernel()
    execute(kc, "keep = tensor([1, 2, 3])\nn = 0")
    # minutes on the simple backend: an interrupt ends it at once
    _interrupted(km, kc, 'timing(sizes=[2048, 4096], backends=["simple"])')
    _interrupted(km, kc, 'compare("keep[0] = 7\\nwhile true:\\n    n = n + 1")')
    r = execute(kc, "[keep.tolist(), n]")
    assert r.result_text() == "[[1.0, 2.0, 3.0], 0]"
