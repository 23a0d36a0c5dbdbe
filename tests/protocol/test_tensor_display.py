"""Tensor display against numpy: the kernel's text/plain of a tensor and numpy's array2string of
the same float32 data, with PyTorch's print options spelt in numpy's terms (precision=4,
threshold=1000, edgeitems=3; floatmode="fixed", except for whole numbers in fixed notation,
which PyTorch and numpy's floatmode="maxprec" both write "2."), and the text/html table
against the text.

What must match, exactly: the values shown and left out (numpy's and PyTorch's summary rule),
each value's text (digits, fixed or scientific notation for the whole tensor, nan and inf), the
"..." marks and the bracket nesting. What is not compared: white space. numpy fills each line
greedily and writes a cut entry as "...", where PyTorch (whose layout the kernel follows) puts
a fixed number of entries on each line and writes it as " ..."; both right-align the values.
The HTML table must hold exactly the entries the text shows, with an ellipsis column or row
where the text has "...", in cells that do not wrap, inside a box that scrolls sideways.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from mtkernel import execute

# magnitudes: each case is (name, values from a standard normal draw -> the data)
MAGNITUDES = [
    ("unit", lambda r: r.random(r.n)),
    ("signed", lambda r: r.standard_normal(r.n)),
    ("tiny", lambda r: r.standard_normal(r.n) * 1e-5),       # below 1e-4: scientific
    ("huge", lambda r: r.standard_normal(r.n) * 1e9),        # above 1e8: scientific
    ("spread", lambda r: r.random(r.n) * 10.0 ** r.integers(-2, 3, r.n)),  # > 1000x apart
    ("whole", lambda r: r.integers(-50, 50, r.n).astype(float)),
    ("whole_spread", lambda r: r.integers(1, 5000, r.n).astype(float)),
    ("nonfinite", lambda r: np.where(r.random(r.n) < 0.1, np.nan,
                                     np.where(r.random(r.n) < 0.1, -np.inf, r.random(r.n)))),
]
SHAPES = [(7,), (1000,), (1001,), (5, 6), (20, 50), (40, 30), (3, 4, 5), (11, 10, 10),
          (2, 3, 200), (4, 1, 300)]


class Draw:
    def __init__(self, seed: int, n: int):
        self.g = np.random.default_rng(seed)
        self.n = n

    def __getattr__(self, name):
        return getattr(self.g, name)


def literal(a: np.ndarray) -> str:
    """A language expression for a float32 array: a nested list of exact float32 values."""
    def one(x: float) -> str:
        if np.isnan(x):
            return 'float("nan")'
        if np.isinf(x):
            return 'float("inf")' if x > 0 else '-float("inf")'
        return repr(float(x))  # the double of a float32 reads back to the same float32
    def nest(x) -> str:
        if x.ndim == 1:
            return "[" + ", ".join(one(v) for v in x) + "]"
        return "[" + ", ".join(nest(s) for s in x) + "]"
    return f"tensor({nest(a)})"


def numpy_text(a: np.ndarray, precision: int = 4, threshold: int = 1000,
               edgeitems: int = 3) -> str:
    def text(floatmode: str) -> str:
        return np.array2string(a, precision=precision, floatmode=floatmode, threshold=threshold,
                               edgeitems=edgeitems, max_line_width=80, separator=", ",
                               suppress_small=False)
    finite = a[np.isfinite(a)]
    if finite.size and np.all(finite == np.ceil(finite)):  # whole numbers: "2." unless scientific
        whole = text("maxprec")
        if "e+" not in whole and "e-" not in whole:
            return whole
    return text("fixed")


def kernel_data(text: str) -> str:
    """The data part of the kernel's text: between "tensor(" and the ", shape=" suffix."""
    assert text.startswith("tensor(")
    end = re.search(r",\s*shape=", text)
    assert end, text
    return text[len("tensor("):end.start()]


TOKEN = re.compile(r"\[|\]|\.\.\.|[^\s,\[\]]+")


def tokens(s: str) -> list[str]:
    return TOKEN.findall(s)


def nested(data: str):
    """The text's data as nested lists of value strings, "..." for a cut entry or row."""
    return json.loads(re.sub(r"(\.\.\.|[^\s,\[\]]+)", r'"\1"', data))


def show(kc, code: str) -> dict:
    r = execute(kc, code)
    assert r.status == "ok", r
    return r.of_type("execute_result")[0]["content"]["data"]


def html_rows(html: str) -> list[list[str]]:
    """The body cells of the table, row by row ("..." for ellipsis cells), headers dropped."""
    table = re.search(r"<table[^>]*>(.*)</table>", html, re.S).group(1)
    rows = []
    for tr in re.findall(r"<tr>(.*?)</tr>", table)[1:]:  # the first row is the column indices
        cells = re.findall(r"<td>(.*?)</td>", tr)
        rows.append(["..." if c in ("&hellip;", "&#8942;", "&#8945;") else c for c in cells])
    return rows


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("kind", range(len(MAGNITUDES)), ids=[m[0] for m in MAGNITUDES])
def test_text_matches_numpy(kc, shape, kind):
    n = int(np.prod(shape))
    a = MAGNITUDES[kind][1](Draw(1000 * kind + len(shape), n)).astype(np.float32).reshape(shape)
    data = show(kc, literal(a))
    text = data["text/plain"]
    want = numpy_text(a)
    assert tokens(kernel_data(text)) == tokens(want), f"kernel:\n{text}\nnumpy:\n{want}"
    # numpy summarises past 1,000 elements; so does the kernel, marking each cut with "..."
    assert ("..." in text) == (n > 1000)
    if a.ndim <= 2:  # the table: the same entries, the same cuts, the same value texts
        rows = nested(kernel_data(text))
        if a.ndim == 1:
            rows = [rows]
        rows = [["..."] * len(html_rows(data["text/html"])[0]) if r == "..." else r
                for r in rows]
        assert html_rows(data["text/html"]) == rows
        assert "white-space:nowrap" in data["text/html"]
        assert "overflow-x:auto" in data["text/html"]


def test_printoptions_match_numpy(kc):
    """set_printoptions' options mean what numpy's do: the same summary and digits."""
    a = np.random.default_rng(7).standard_normal((9, 8)).astype(np.float32)
    try:
        data = show(kc, "set_printoptions(precision=2, threshold=50, edgeitems=2)\n" + literal(a))
        want = numpy_text(a, precision=2, threshold=50, edgeitems=2)
        assert tokens(kernel_data(data["text/plain"])) == tokens(want)
        assert len(html_rows(data["text/html"])) == 2 + 1 + 2
        # profile="full" shows all of a big tensor, the table too
        b = np.arange(1200, dtype=np.float32).reshape(40, 30) / 7
        data = show(kc, 'set_printoptions(profile="full")\n' + literal(b))
        want = numpy_text(b, threshold=10**9)
        assert tokens(kernel_data(data["text/plain"])) == tokens(want)
        assert "..." not in data["text/plain"]
        assert sum(map(len, html_rows(data["text/html"]))) == 1200
    finally:
        show(kc, 'set_printoptions(profile="default")\n0')
    assert "..." in show(kc, "zeros(1001)")["text/plain"]


def test_printoptions_errors(kc):
    for code, ename in [("set_printoptions(precision=-1)", "ValueError"),
                        ("set_printoptions(edgeitems=0)", "ValueError"),
                        ('set_printoptions(threshold="all")', "TypeError"),
                        ('set_printoptions(profile="long")', "ValueError"),
                        ("set_printoptions(sci_mode=1)", "TypeError")]:
        r = execute(kc, code)
        assert r.error()["ename"] == ename, (code, r)
