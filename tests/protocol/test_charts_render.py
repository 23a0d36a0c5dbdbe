"""Every kind of chart the kernel emits, compiled and drawn by a real Vega-Lite compiler
(vl-convert-python: vega-lite and vega in Deno, no browser), through a real Jupyter client.

For each display or result bundle that carries a Vega-Lite spec: the spec renders to a PNG
with a non-empty canvas and to an SVG that holds the marks the chart is made of (points,
rects, lines, bars), and the kernel's own SVG fallback parses as XML. The kinds: a dataset's
scatter plot (spiral, whose outer points are clipped), a decision boundary (plot), train()'s
chart (the boundary beside the loss curve over the time per epoch), compare()'s bars,
timing()'s lines, line_chart()'s lines, and heatmap()'s cells (with and without the values
written in, and 40 x 60 with thinned axis labels).

Every chart fits a notebook's column: JupyterLab's output area is about 960 pixels wide in a
1400-pixel window beside its file browser (tests/browser measures it), so both forms, the
chart Vega-Lite draws and the kernel's own SVG, are at most MAX_WIDTH pixels wide."""

from __future__ import annotations

import json
import re
import struct
import xml.etree.ElementTree as ET

import vl_convert as vlc  # pinned in tools/requirements.txt: missing, the suite fails

from mtkernel import execute

VEGALITE = "application/vnd.vegalite.v5+json"
MAX_WIDTH = 900


def bundles(res) -> list[dict]:
    """The mime bundles of every display_data and execute_result of a request, in order."""
    out = []
    for m in res.iopub:
        if m["msg_type"] in ("display_data", "execute_result"):
            out.append(m["content"]["data"])
    return out


def png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", png[16:24])  # IHDR
    return width, height


def svg_size(svg: str) -> tuple[float, float]:
    """The width and height an SVG document asks for (its root's attributes, in pixels)."""
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
    return float(root.get("width")), float(root.get("height"))


def check_renders(spec: dict, marks: list[str]) -> ET.Element:
    """Compiles and draws the spec; checks its marks and its width. The drawn SVG's root."""
    text = json.dumps(spec)
    w, h = png_size(vlc.vegalite_to_png(text))  # scale 1: the chart's size in CSS pixels
    assert 100 <= w <= MAX_WIDTH and h >= 100, (w, h)
    svg = vlc.vegalite_to_svg(text)
    assert svg_size(svg)[0] <= MAX_WIDTH, svg_size(svg)
    for mark in marks:  # Vega tags each mark's group with its type
        assert f'class="mark-{mark}' in svg, f"no {mark} marks in the rendered chart"
    return ET.fromstring(svg)


def charts_of(res) -> list[dict]:
    """The chart bundles of a request; each one's SVG fallback fits the column."""
    found = [b for b in bundles(res) if VEGALITE in b]
    for b in found:
        w, h = svg_size(b["image/svg+xml"])
        assert 100 <= w <= MAX_WIDTH and h >= 100, (b["text/plain"], w, h)
    return found


def test_scatter_and_boundary_render(kc):
    execute(kc, "%plot_renderer auto")
    (scatter,) = charts_of(execute(kc, 'ds = dataset("spiral", 60)\nds'))
    check_renders(scatter[VEGALITE], ["symbol"])
    (boundary,) = charts_of(execute(kc, 'm = mlp(2, 5, 1)\nplot(m, dataset("xor", 30, seed=1))'))
    check_renders(boundary[VEGALITE], ["rect", "symbol"])


def test_training_charts_render(kc):
    execute(kc, "%plot_renderer auto")
    r = execute(kc, 'ds = dataset("simple", 40, seed=3)\nm = mlp(2, 8, 1)\n'
                    "train(m, ds, rate=0.5, epochs=20, log=0)")
    assert r.status == "ok"
    (chart,) = charts_of(r)  # the boundary over the loss curve over the time per epoch
    boundary, _, time_panel = chart[VEGALITE]["vconcat"]
    assert "layer" in boundary
    check_renders(chart[VEGALITE], ["rect", "symbol", "line"])
    # the times in the unit the slowest epoch reads best in: 1 to 1000 of it
    text = json.dumps(time_panel, ensure_ascii=False)
    units = re.findall(r"time per epoch \((µs|ms|s)\)", text)
    assert units, text[:2000]
    times = [v["y"] for v in time_panel["data"]["values"]]
    assert 1 <= max(times) < 1000, (units, times)


def test_long_training_chart_fits(kc):
    """Five-digit epochs and times: the axes' longer labels still leave the chart in the column."""
    execute(kc, "%plot_renderer auto")
    r = execute(kc, 'ds = dataset("xor", 20, seed=3)\nm = mlp(2, 4, 1)\n'
                    "train(m, ds, rate=0.5, epochs=12000, batch=20, log=0)", timeout=120)
    assert r.status == "ok"
    (chart,) = charts_of(r)
    check_renders(chart[VEGALITE], ["rect", "symbol", "line"])


def test_compare_and_timing_charts_render(kc):
    execute(kc, "%plot_renderer auto")
    r = execute(kc, 'a = rand(20, 20)\nb = rand(20, 20)\ncompare("a @ b", ["simple", "fast"])')
    assert r.status == "ok"
    (bars,) = charts_of(r)
    check_renders(bars[VEGALITE], ["rect"])
    r = execute(kc, 'timing("matmul", [8, 16], ["simple", "fast"])')
    assert r.status == "ok"
    (lines,) = charts_of(r)
    check_renders(lines[VEGALITE], ["line"])


def test_colab_starts_with_html_charts():
    """In Colab (COLAB_RELEASE_TAG set, as on its VMs) charts come as HTML with vega-embed, the
    SVG inside as the offline fallback, and never the Vega-Lite mime type Colab cannot show."""
    import os

    from mtkernel import start_kernel, stop_kernel

    km, kc = start_kernel(env={**os.environ, "COLAB_RELEASE_TAG": "release-colab-test"})
    try:
        r = execute(kc, 'dataset("xor", 20, seed=1)')
        (data,) = bundles(r)
        assert set(data) == {"text/plain", "text/html"}
        assert "vega-embed" in data["text/html"] and "<svg" in data["text/html"]
        assert execute(kc, "%plot_renderer").stream().strip() == "plot renderer: html"
    finally:
        stop_kernel(km, kc)


def axis_labels(svg: ET.Element, axis: str) -> list[tuple[str, float]]:
    """The tick labels Vega drew on the x or y axis: (text, position along the axis)."""
    ns = "{http://www.w3.org/2000/svg}"
    for g in svg.iter(ns + "g"):
        if "role-axis" in g.get("class", "") and g.get("aria-label", "").startswith(
                axis.upper() + "-axis"):
            out = []
            for lg in g.iter(ns + "g"):
                if "role-axis-label" in lg.get("class", ""):
                    for t in lg.iter(ns + "text"):
                        if t.get("opacity", "1") == "0":  # hidden by Vega's overlap removal
                            continue
                        x, y = re.search(r"translate\(([-\d.e]+),\s*([-\d.e]+)\)",
                                         t.get("transform")).groups()
                        out.append((t.text, float(x if axis == "x" else y)))
            return out
    raise AssertionError(f"no {axis} axis")


def test_heatmaps_render(kc):
    execute(kc, "%plot_renderer auto")
    (small,) = charts_of(execute(kc, "heatmap(tensor([[1, 2, 3], [4, 5, 6]]))"))
    spec = small[VEGALITE]
    assert [v["value"] for v in spec["data"]["values"]] == [1, 2, 3, 4, 5, 6]
    check_renders(spec, ["rect", "text"])  # few cells: the values are written in
    (big,) = charts_of(execute(kc, "heatmap(rand(20, 30))"))
    assert len(big[VEGALITE]["data"]["values"]) == 600
    check_renders(big[VEGALITE], ["rect"])
    r = execute(kc, "heatmap(rand(40, 60))")
    (large,) = charts_of(r)
    drawn = check_renders(large[VEGALITE], ["rect"])
    for axis, n, gap in (("x", 60, 20), ("y", 40, 11)):
        labels = axis_labels(drawn, axis)
        # labelled from 0, evenly, far enough apart not to overlap (font size 10)
        assert labels[0][0] == "0" and 4 <= len(labels) < n, (axis, labels)
        steps = {int(b[0]) - int(a[0]) for a, b in zip(labels, labels[1:])}
        assert len(steps) == 1, (axis, labels)
        assert min(abs(b[1] - a[1]) for a, b in zip(labels, labels[1:])) >= gap, (axis, labels)
    fallback = ET.fromstring(large["image/svg+xml"])
    numbers = [t.text for t in fallback.iter("{http://www.w3.org/2000/svg}text")
               if t.text and t.text.isdigit()]
    assert "0" in numbers and "59" not in numbers and len(numbers) >= 8, numbers
    r = execute(kc, "heatmap(rand(2, 2, 2))")
    assert r.error()["ename"] == "ShapeError"


def test_line_charts_render(kc):
    execute(kc, "%plot_renderer auto")
    r = execute(kc, 'xs = [i / 4 for i in range(-20, 21)]\n'
                    'line_chart(xs, {"relu": [relu(v) for v in xs], "step": '
                    '[1.0 if v > 0 else 0.0 for v in xs]}, title="t", y_title="y")')
    (chart,) = charts_of(r)
    spec = chart[VEGALITE]
    values = spec["data"]["values"]
    assert len(values) == 82 and {v["series"] for v in values} == {"relu", "step"}
    assert [v["y"] for v in values if v["series"] == "relu"][-1] == 5.0
    check_renders(spec, ["line"])
    (few,) = charts_of(execute(kc, 'line_chart([1, 2, 3], {"a": [3, 1, 2]})'))
    assert [v["y"] for v in few[VEGALITE]["data"]["values"]] == [3, 1, 2]
    check_renders(few[VEGALITE], ["line", "symbol"])
