"""User functions in map and zip (the language's compiler, kernel/lib/compile.c, and the engine's
programs, engine/src/prog.c) against numpy, on random functions.

Each case generates a function built from the operations a compiled function may use, written
twice: as MiniTorch source for the kernel, and as Python source evaluated element by element
on numpy float32 scalars (constants as np.float32, comparisons as 1.0/0.0, so that Python's
bool arithmetic does not differ from the language's). One `minitorch-kernel run` script runs
every function through map (a transposed, strided view) and zip (operands broadcast from
(3, 1, 5) and (4, 5)) on the simple and fast backends, and on cuda where the engine can run it,
and prints the results as lists.

Two families:
  branchy  + - * / unary minus, comparisons (chained too), and/or/not, a if c else b, abs, min,
           max, relu, if/elif/else statements with early returns and locals: each is one IEEE
           float32 operation or a selection, so the results must equal numpy's bit for bit
           (NaN where numpy has NaN, signed zeros included), on the GPU too (its kernels are
           compiled with --fmad=false)
  smooth   arithmetic with exp, log, sqrt, tanh, sigmoid: the fast backend's vector routines
           and numpy's are each within a few ulp of the true value, so within a tolerance

The kernel binary is the build's (beside MT_ENGINE_LIB); without it the test fails.
"""

import json
import os
import random
import subprocess
import tempfile

import numpy as np
import pytest

import mtbind

KERNEL = os.environ.get("MT_KERNEL_BIN",
                        os.path.join(os.path.dirname(mtbind.LIB_PATH), "minitorch-kernel"))

F = np.float32
CONSTS = [0.0, 0.5, 1.0, 2.0, -1.5, 0.25, 3.0, 1.0 / 3.0, -0.0, 10.0]


def _b(v):
    return F(1.0) if v else F(0.0)


def _relu(v):
    return v if v > 0 else F(0.0)


def _sigmoid(v):
    return F(1.0) / (F(1.0) + np.exp(-v)) if v >= 0 else np.exp(v) / (F(1.0) + np.exp(v))


REF_NS = {"F": F, "_c": F, "_b": _b, "relu": _relu, "sigmoid": _sigmoid, "exp": np.exp, "log": np.log,
          "sqrt": np.sqrt, "tanh": np.tanh, "abs": abs, "min": min, "max": max}


class Gen:
    """Random expressions as (minitorch source, python reference source)."""

    def __init__(self, rng, names, smooth):
        self.r, self.names, self.smooth = rng, names, smooth

    def leaf(self):
        if self.r.random() < 0.65:
            n = self.r.choice(self.names)
            return n, n
        c = self.r.choice(CONSTS)
        return repr(c), f"_c({c!r})"

    def expr(self, depth):
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.leaf()
        if self.smooth:
            k = r.randrange(6)
            if k < 3:
                (a, pa), (b, pb) = self.expr(depth - 1), self.expr(depth - 1)
                op = r.choice("+-*")
                return f"({a} {op} {b})", f"({pa} {op} {pb})"
            a, pa = self.expr(depth - 1)
            fn = r.choice(["exp", "log", "sqrt", "tanh", "sigmoid"])
            if fn in ("log", "sqrt"):  # in their domain, away from 0
                return f"{fn}(abs({a}) + 0.5)", f"{fn}(abs({pa}) + _c(0.5))"
            if fn == "exp":  # no overflow to inf on one side only
                return f"exp(min(max({a}, -20), 20))", f"exp(min(max({pa}, _c(-20)), _c(20)))"
            return f"{fn}({a})", f"{fn}({pa})"
        k = r.randrange(10)
        (a, pa), (b, pb) = self.expr(depth - 1), self.expr(depth - 1)
        if k < 3:
            op = r.choice("+-*/")
            return f"({a} {op} {b})", f"({pa} {op} {pb})"
        if k == 3:
            op = r.choice(["<", "<=", ">", ">=", "==", "!="])
            if r.random() < 0.3:  # chained
                c, pc = self.expr(depth - 1)
                return f"({a} {op} {b} < {c})", f"_b({pa} {op} {pb} < {pc})"
            return f"({a} {op} {b})", f"_b({pa} {op} {pb})"
        if k == 4:
            op = r.choice(["and", "or"])
            return f"({a} {op} {b})", f"({pa} {op} {pb})"
        if k == 5:
            return f"(not {a})", f"_b(not {pa})"
        if k == 6:
            c, pc = self.expr(depth - 1)
            return f"({a} if {c} else {b})", f"({pa} if {pc} else {pb})"
        if k == 7:
            fn = r.choice(["min", "max"])
            return f"{fn}({a}, {b})", f"{fn}({pa}, {pb})"
        if k == 8:
            return f"(-{a})", f"(-{pa})"
        fn = r.choice(["abs", "relu"])
        return f"{fn}({a})", f"{fn}({pa})"


def gen_function(rng, name, params, smooth):
    """(minitorch def, python def): straight-line or, when branchy, with if/elif/else, locals
    and early returns."""
    g = Gen(rng, list(params), smooth)
    head = f"def {name}({', '.join(params)}):"
    mt, py = [head], [head]
    if not smooth and rng.random() < 0.7:
        t, pt = g.expr(2)
        mt.append(f"    t = {t}")
        py.append(f"    t = {pt}")
        g.names.append("t")
        c1, pc1 = g.expr(2)
        r1, pr1 = g.expr(2)
        mt += [f"    if {c1}:", f"        return {r1}"]
        py += [f"    if {pc1}:", f"        return {pr1}"]
        if rng.random() < 0.5:
            c2, pc2 = g.expr(2)
            u, pu = g.expr(2)
            mt += [f"    elif {c2}:", f"        t = {u}"]
            py += [f"    elif {pc2}:", f"        t = {pu}"]
    e, pe = g.expr(3)
    mt.append(f"    return {e}")
    py.append(f"    return {pe}")
    return "\n".join(mt), "\n".join(py)


def values(rng, n):
    pool = [0.0, 1.0, -1.0, 0.5, 2.0, -0.0]
    return [rng.choice(pool) if rng.random() < 0.3 else round(rng.uniform(-3, 3), 3)
            for _ in range(n)]


def run_kernel(script):
    if not os.path.exists(KERNEL):
        pytest.fail(f"{KERNEL} not found: build the kernel (make build)")
    with tempfile.NamedTemporaryFile("w", suffix=".mt", delete=False) as f:
        f.write(script)
    try:
        p = subprocess.run([KERNEL, "run", f.name], capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(f.name)
    if p.returncode != 0:
        pytest.fail(f"minitorch-kernel run failed:\n{p.stderr[-3000:]}")
    return [json.loads(line) for line in p.stdout.splitlines()]


def reference(pydef, name, arrays):
    ns = dict(REF_NS)
    exec(pydef, ns)  # noqa: S102 - our own generated source
    fn = ns[name]
    bcast = np.broadcast_arrays(*arrays)
    out = np.empty(bcast[0].shape, dtype=np.float32)
    with np.errstate(all="ignore"):
        for idx in np.ndindex(out.shape):
            out[idx] = F(fn(*(F(a[idx]) for a in bcast)))
    return out


def same(got, want, exact):
    got = np.asarray(got, dtype=np.float32).reshape(want.shape)
    if exact:
        ok = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    else:
        ok = np.isclose(got, want, rtol=2e-3, atol=2e-4, equal_nan=True)
    return ok


# the backends each case runs on: the CPU's, and cuda where the engine can run it (a GPU, or
# MT_CUDA_PLUGIN naming the host stand-in, which runs the program itself: `make test` runs the
# suite's cuda cases that way)
PLACES = [("cpu", ("simple", "fast"))] + ([("cuda", ("cuda",))] if mtbind.cuda_available() else [])


def operands(rng):
    """The random tests' operands, drawn from rng in this order: a (4, 6) transposed view, b1 of
    shape (3, 1, 5) and b2 of (4, 5) to broadcast against it, as numpy arrays, and the lines that
    make them in the language."""
    a_data = values(rng, 24)  # (6, 4), viewed transposed as (4, 6)
    z1, z2 = values(rng, 15), values(rng, 20)  # (3, 1, 5) and (4, 5)
    a = np.array(a_data, dtype=np.float32).reshape(6, 4).T
    b1 = np.array(z1, dtype=np.float32).reshape(3, 1, 5)
    b2 = np.array(z2, dtype=np.float32).reshape(4, 5)
    lines = [f"a = tensor({json.dumps(np.array(a_data).reshape(6, 4).tolist())}).permute(1, 0)",
             f"b1 = tensor({json.dumps(np.array(z1).reshape(3, 1, 5).tolist())})",
             f"b2 = tensor({json.dumps(np.array(z2).reshape(4, 5).tolist())})"]
    return a, b1, b2, lines


@pytest.mark.parametrize("place,backends", PLACES, ids=[p for p, _ in PLACES])
@pytest.mark.parametrize("smooth", [False, True], ids=["branchy", "smooth"])
def test_random_functions(smooth, place, backends):
    rng = random.Random(20261123 + smooth)
    n_funcs = 40
    a, b1, b2, lines = operands(rng)
    cases = []
    for i in range(n_funcs):
        two = i % 2 == 1
        name = f"f{i}"
        mt, py = gen_function(rng, name, ["x", "y"] if two else ["x"], smooth)
        lines.append(mt)
        for be in backends:
            call = (f"zip({name}, b1.to(\"{be}\"), b2.to(\"{be}\"))" if two
                    else f"map({name}, a.to(\"{be}\"))")
            lines.append(f"print({call}.tolist())")
            cases.append((name, mt, py, be, [b1, b2] if two else [a]))
    outs = run_kernel("\n".join(lines) + "\n")
    assert len(outs) == len(cases)
    failures = []
    for (name, mt, py, be, arrays), got in zip(cases, outs):
        want = reference(py, name, arrays)
        ok = same(got, want, exact=not smooth)
        if not ok.all():
            bad = np.argwhere(~ok)[0]
            failures.append(f"{be} {name}: {int((~ok).sum())} of {ok.size} differ, first at "
                            f"{tuple(bad)}: got {np.asarray(got).reshape(want.shape)[tuple(bad)]!r}"
                            f", numpy {want[tuple(bad)]!r}\n{mt}")
    assert not failures, "\n\n".join(failures[:5])
    # the generator made real functions: not every output is the same constant
    assert len({json.dumps(o) for o in outs}) > n_funcs // 2


# Unrolled loops of up to the 1,024 iterations the compiler allows (within 4,096 operations), with the counter read as a binary op's
# immediate, as an operand in memory (a selection's, pow's) and not at all: each iteration's
# counter is a new constant, more of them than the engine has buffers, so they must share
# buffers by their live ranges (engine/src/prog.c, plan_slots), and an unread counter must cost
# nothing. Every op is one IEEE float32 operation or a selection: numpy's bits.
LOOPS = [
    ("x", "    for i in range(1024):\n        x = x + 1",
     "    for i in range(1024):\n        x = x + F(1)"),
    ("x", "    for i in range(768):\n        x = x if x > i * 0.5 else i",
     "    for i in range(768):\n        x = x if x > F(i) * F(0.5) else F(i)"),
    ("x", "    for i in range(1024):\n        x = x * 0.999 + i",
     "    for i in range(1024):\n        x = x * F(0.999) + F(i)"),
    ("x", "    for i in range(-256, 256):\n        x = max(x, i) - (i if x < 0 else 0.25)",
     "    for i in range(-256, 256):\n        x = max(x, F(i)) - (F(i) if x < 0 else F(0.25))"),
    ("x, y", "    for i in range(0, 1024, 2):\n        x = min(x + y, i) - (i - 1) * 0.001",
     "    for i in range(0, 1024, 2):\n        x = min(x + y, F(i)) - (F(i) - F(1)) * F(0.001)"),
]


@pytest.mark.parametrize("place,backends", PLACES, ids=[p for p, _ in PLACES])
def test_long_unrolled_loops(place, backends):
    rng = random.Random(20261125)
    a, b1, b2, lines = operands(rng)
    cases = []
    for k, (params, mt_body, py_body) in enumerate(LOOPS):
        name = f"loop{k}"
        mt = f"def {name}({params}):\n{mt_body}\n    return x"
        py = f"def {name}({params}):\n{py_body}\n    return x"
        lines.append(mt)
        two = "," in params
        for be in backends:
            call = (f"zip({name}, b1.to(\"{be}\"), b2.to(\"{be}\"))" if two
                    else f"map({name}, a.to(\"{be}\"))")
            lines.append(f"print({call}.tolist())")
            cases.append((name, mt, py, be, [b1, b2] if two else [a]))
    outs = run_kernel("\n".join(lines) + "\n")
    assert len(outs) == len(cases)
    for (name, mt, py, be, arrays), got in zip(cases, outs):
        want = reference(py, name, arrays)
        ok = same(got, want, exact=True)
        assert ok.all(), f"{be} {name}: got {got}, numpy {want.tolist()}\n{mt}"
