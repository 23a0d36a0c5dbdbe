#!/usr/bin/env python3
"""jit_fuzz.py — random njit functions and cuda.jit kernels, compiled, against the interpreter.

Where fuzz_lang.c feeds the language bytes (and compiles nothing), this fuzzer writes programs
that the compilers take (kernel/lib/jit; the simulator's run time, kernel/lib/jit/rt/sim.inc) from a typed
grammar, compiles each once and runs it with many random argument values, each run beside the
interpreter's run of the same function. What it asks of the compiled code:

- no crash (a signal, a sanitizer's report) and no hang: each program's output is watched, and
  when it stalls the process gets SIGINT, which must end it with KeyboardInterrupt (a hang deaf
  to it is a finding of its own); some programs end with a call that never returns (a loop
  holding loops, a flat loop, a prange loop, a simulated CUDA thread's loop) and SIGINT must
  stop it;
- every refusal or error located: each kind of error the compiled code raised (IndexError,
  ZeroDivisionError, ...) is raised again uncaught, in a process of its own, and its traceback
  must end in a line of the program's code, as a refusal's CompileError must;
- the interpreter's result, where the interpreter runs the function without an error and no
  int overflow is involved (the interpreter raises OverflowError where compiled + - * wrap, as
  Numba's do): the same return value, Storages and lists after the call, compared by repr (so
  -0.0, nan and an int against a float count), or the same exception and the same arrays;
- C that compiles: a function left to the interpreter because gcc or tcc failed on the C the
  compiler wrote, or a kernel the simulator could not build, is a finding.

The programs. An njit function takes ints, floats, tuples and lists of ints and Storages (drawn
near the edges: 0, ±1, 2**31, 2**53 + 1, INT64_MIN/MAX, ±0.0, inf, nan, 5e-324, float32's
largest ...) and computes with + - * / // % **, comparisons, and/or/not, abs min max int float
len, minitorch.operators' functions, to_index and index_to_position, helper functions (some
writing the list they are given), branches, for loops over ranges (any step), arrays, zip and
enumerate, while loops, break, continue and early returns, nested up to three deep with small
bounds, and local int arrays of 1 to 5000 elements (past 1024 the compiler leaves the function
to the interpreter); a quarter hold a prange loop with an int reduction, each iteration writing
its own element and reading the arrays it writes anywhere (where two iterations meet at an
element, the compiled code raises the race, which the interpreter, running them in order,
cannot see; such runs are counted apart, and a different result without it is a finding). A
cuda.jit kernel is launched on 1 to 4 blocks of 1 to 64 threads in one to
three dims (sometimes on a shape a GPU refuses), and runs rounds of two phases between
cuda.syncthreads(): each thread writes its own element of a shared array (one or two dims;
float64, float32, int32 or int64), then reads its neighbours', with cuda.local.array, device
functions and index helpers. Its reference is the same code in the interpreter, as plain loops
over blocks and threads, phase after phase. Some kernels hold a mistake the simulator reports
(a shared-memory race, a barrier not every thread reaches, a read of shared memory no thread
wrote, a local array past the limit): their launches must raise located errors.

Known divergences. A few constructs are left out by default, each a divergence from the
interpreter that the compiler keeps by design or has not closed: min/max of a bool and an int
(the compiled result is the int, Python's the bool object), int ** int with an exponent known
only at run time (a float compiled, as njit types it), int / int past 2**53 (each int made a
float first). The runs that show the others (operands evaluated in C's order, so that another
error comes first; the interpreter's to_index refusing a dim below 0, and its index helpers
MAX_DIMS elements; a bool where the compiled code has an int, as Numba's does: stored into an
int list, or a value that is a bool on one path and an int on another, such as `b and n`) are
recognised by their pair of outcomes (KNOWN in the script), and
programs whose C does not compile for a known reason by the compiler's error (C_KNOWN, none
now); both are counted apart. --known (JIT_FUZZ_KNOWN=1) generates every construct and makes
every divergence a finding.

Each program runs in one `minitorch-kernel run` process, compiled once: half of the njit
programs run tcc's build at their first call and gcc's from the second, the other half tcc's
at every call (MT_CC=tcc: tcc builds for the "system compiler" too). A finding is written to
--out as the program's script and what went wrong, with the program's seed and the seed of the
arguments that show it; --repro prints a script that runs those arguments through both, and
--minimize deletes lines of an njit finding's function as long as the finding still shows.

  jit_fuzz.py --kernel build/minitorch-kernel [--programs 1000] [--runs 10000]
              [--cuda-runs 2000] [--cuda-share 0.3] [--seed 1] [--jobs 2] [--out DIR] [--known]
  jit_fuzz.py --kernel K --repro PROGRAM_SEED ARGS_SEED [--cuda]
  jit_fuzz.py --kernel K --minimize PROGRAM_SEED ARGS_SEED [--tcc]

`make fuzz-jit` runs the long campaign (JIT_FUZZ_ARGS); tests/differential/test_jit_fuzz.py
runs a smoke of it in `make test`.
"""

import argparse
import collections
import concurrent.futures
import os
import random
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# ---- the script around a program ------------------------------------------------------------

PRELUDE = """\
import random
import numpy as np
import numba
import minitorch
from minitorch import operators, to_index, index_to_position
from numba import njit, prange, cuda

INT64_MAX = 9223372036854775807
INT64_MIN = -INT64_MAX - 1
INF = float("inf")
NAN = float("nan")
EDGE_I = [0, 1, -1, 2, -2, 3, -3, 7, 31, 63, 64, 2 ** 31, -2 ** 31, 2 ** 31 - 1, 2 ** 32,
          2 ** 53 + 1, INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1, 10 ** 18, -10 ** 18]
EDGE_F = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.75, 1e308, -1e308, INF, -INF, NAN, 5e-324,
          -5e-324, 1e-300, 2.0 ** 63, -2.0 ** 63, 9007199254740993.0, 1e16, 0.1, 3.4e38, 1e39]
STOR_F = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.75, 100.0, INF, -INF, NAN, 1e-45, 3.4e38, -7.0]


def gi():
    if random.random() < 0.3:
        return random.choice(EDGE_I)
    return random.randint(-12, 12)


def gf():
    if random.random() < 0.5:
        return random.choice(EDGE_F)
    return random.randint(-40, 40) / 8


def gsmall():
    if random.random() < 0.1:
        return random.choice(EDGE_I)
    return random.randint(-3, 6)


def gt():
    return tuple([gsmall() for k in range(random.choice([0, 1, 1, 2, 2, 3, 3, 3, 4, 4]))])


def gl():
    return [gsmall() for k in range(random.choice([1, 2, 3, 4, 6]))]


def gs():
    vals = []
    for k in range(random.choice([1, 2, 3, 5, 8, 16])):
        vals.append(random.choice(STOR_F) if random.random() < 0.4 else random.randint(-16, 16) / 4)
    return minitorch.tensor(vals)._tensor._storage


def after(args, outs):
    return [[v for v in args[k]] for k in outs]
"""

# The loop over runs, shared by njit programs and kernels: RUN(s) runs the compiled code on the
# arguments drawn from seed s, REF(s) the interpreter's, each giving ['ok', value, arrays...]
# or [error's type, its message, arrays...]. KNOWN(a, b) names the reported divergence a pair
# of outcomes shows, if it shows one (the generators leave out the constructs of the others).
LOOP = """\
def UNBOOL(x):
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, list):
        return [UNBOOL(v) for v in x]
    return x


def KNOWN(a, b):
    if a[0] != "ok" and b[0] != "ok" and a[0] != b[0]:
        return "operands evaluated in another order than Python's: another error first"
    if a[0] == "ZeroDivisionError" and "modulo by zero" in a[1] and TO_INDEX and a != b:
        return "the interpreter's to_index refuses a dim < 0"
    if a[0] == "IndexingError" and "MAX_DIMS" in a[1]:
        return "the interpreter's index helpers take at most MAX_DIMS elements"
    if a[0] == b[0] and repr(UNBOOL(a)) == repr(UNBOOL(b)):
        return "a bool where the compiled code has an int"
    return ""


def COMPARE(a, b):
    if a[0] == "fault":
        return "fault"
    if b[0] == "RuntimeError" and "(a race)" in b[1]:
        return "race: two iterations met at an element, found as they ran"
    if a[0] == "OverflowError" and "64 bits" in a[1]:
        return "overflow"  # the interpreter's int overflow, where compiled + - * wrap
    if a[0] == b[0] and (a[0] != "ok" or repr(a[1]) == repr(b[1])):
        if repr(a[2:]) == repr(b[2:]):
            return "same"
    if LOOSE and a[0] != "ok" and b[0] != "ok":
        return "same"  # threads raising different errors: which is reported is chance
    k = KNOWN(a, b)
    return "known: " + k if k and not ALL else "differs"


same = 0
overflow = 0
known = {{}}
errs = {{}}
first_err = {{}}
shown = 0
for r in range({runs}):
    a = REF({base} + r)
    b = RUN({base} + r)
    c = COMPARE(a, b)
    if c == "same":
        same += 1
    elif c == "overflow":
        overflow += 1
    elif c == "differs":
        shown += 1
        if shown <= 3:
            print("MISMATCH", r, repr(a), repr(b))
    elif c != "fault":
        known[c] = known.get(c, 0) + 1
    if b[0] != "ok":
        errs[b[0]] = errs.get(b[0], 0) + 1
        if b[0] not in first_err:
            first_err[b[0]] = r
    if r % 500 == 499:
        print("PROGRESS", r + 1)
print("SUMMARY", {runs}, same, overflow, shown, "|", repr(errs), "|", repr(first_err), "|",
      repr(known))
"""


# ---- typed expressions and statements -------------------------------------------------------

INT_LITS = ["0", "1", "-1", "2", "3", "-3", "7", "31", "64", "2 ** 31", "-2 ** 31", "2 ** 32",
            "2 ** 53 + 1", "INT64_MAX", "(-9223372036854775807 - 1)", "10 ** 18", "-7", "1000003"]
FLOAT_LITS = ["0.0", "-0.0", "1.0", "-1.0", "0.5", "2.5", "-3.75", "1e308", "-1e308", "INF",
              "-INF", "NAN", "5e-324", "1e-300", "2.0 ** 63", "0.1", "3.4e38", "1e16"]
OPS1 = ["neg", "sigmoid", "relu", "log", "exp", "inv", "id"]
OPS2 = ["mul", "add", "lt", "eq", "max", "is_close", "relu_back", "log_back", "inv_back"]


class Scope:
    """The names a piece of code may read and write, by type."""

    def __init__(self):
        self.ints, self.floats = [], []
        self.tuples, self.lists, self.stors, self.bufs = [], [], [], []
        self.frozen = set()  # arrays a zip or enumerate goes over: not written in that loop
        self.big = set()  # local arrays of a thousand elements or more: no loop goes over them
        self.readonly = set()  # arrays a prange body only reads

    def arrays(self):
        return self.tuples + self.lists + self.stors + self.bufs

    def int_arrays(self):
        return self.tuples + self.lists + self.bufs

    def writable_ints(self):
        return [a for a in self.lists + self.bufs
                if a not in self.frozen and a not in self.readonly]

    def writable_stors(self):
        return [a for a in self.stors if a not in self.frozen and a not in self.readonly]


class Code:
    """The expression and statement grammar both generators share."""

    def __init__(self, rng, known, helpers=()):
        self.r = rng
        self.known = known
        self.helpers = list(helpers)  # (name, [arg types], return type)
        self.n_tmp = 0

    def tmp(self, prefix="t"):
        self.n_tmp += 1
        return f"{prefix}{self.n_tmp}"

    # -- expressions
    def index(self, s, arr, d):
        """An index into arr: mostly inside it (taken % its length), sometimes anything."""
        r = self.r
        e = self.iexpr(s, d + 1)
        c = r.random()
        if c < 0.75:
            return f"({e}) % len({arr})"
        if c < 0.85:
            return f"-1 - ({e}) % len({arr})"
        return e

    def iexpr(self, s, d=0):
        r = self.r
        c = r.random()
        if d >= 3 or c < 0.3:
            names = s.ints
            if names and r.random() < 0.7:
                return r.choice(names)
            if r.random() < 0.05:
                return "INT64_MIN"  # the global, which C writes as an expression
            return r.choice(INT_LITS) if r.random() < 0.5 else str(r.randint(-9, 9))
        if c < 0.4 and s.int_arrays():
            arr = r.choice(s.int_arrays())
            return f"{arr}[{self.index(s, arr, d)}]"
        if c < 0.45 and s.arrays():
            return f"len({r.choice(s.arrays())})"
        if c < 0.5:
            fn = r.choice(["abs", "-", "min", "max"])
            if fn in ("min", "max"):
                return f"{fn}({self.iexpr(s, d + 1)}, {self.iexpr(s, d + 1)})"
            return f"abs({self.iexpr(s, d + 1)})" if fn == "abs" else f"-({self.iexpr(s, d + 1)})"
        if c < 0.55:
            return f"int({self.fexpr(s, d + 1)})"
        if c < 0.6:
            return f"({self.iexpr(s, d + 1)} if {self.cond(s, d + 1)} else {self.iexpr(s, d + 1)})"
        if c < 0.64 and self.helpers:
            h = [x for x in self.helpers if x[2] == "int"]
            if h:
                name, args, _ = r.choice(h)
                return f"{name}({', '.join(self.expr(s, t, d + 1) for t in args)})"
        if c < 0.67 and s.int_arrays() and s.tuples:
            return f"index_to_position({r.choice(s.int_arrays())}, {r.choice(s.tuples)})"
        if c < 0.69:  # `and`, `or` of values, and arithmetic on bools: Python's
            return r.choice([f"({self.iexpr(s, d + 1)} and {self.iexpr(s, d + 1)})",
                             f"({self.iexpr(s, d + 1)} or {self.iexpr(s, d + 1)})",
                             f"(({self.cond(s, d + 1)}) + ({self.cond(s, d + 1)}))",
                             f"(({self.cond(s, d + 1)}) - ({self.cond(s, d + 1)}))"])
        if c < 0.7 and self.known:
            return self.known_iexpr(s, d)
        op = r.choice(["+", "-", "*", "//", "%", "+", "-", "*", "**"])
        if op == "**":  # an exponent known when it compiles: the result is an int
            return f"({self.iexpr(s, d + 1)}) ** {r.choice(['0', '1', '2', '3'])}"
        if op in ("//", "%") and r.random() < 0.5:  # a divisor that is not 0, half the time
            rhs = r.choice(["2", "3", "-3", "7", "64", "2 ** 31"])
            return f"({self.iexpr(s, d + 1)} {op} {rhs})"
        return f"({self.iexpr(s, d + 1)} {op} {self.iexpr(s, d + 1)})"

    def known_iexpr(self, s, d):
        """The constructs of reported divergences (see the top of the file)."""
        r = self.r
        return r.choice([f"max({self.cond(s, d + 1)}, 0)",
                         f"int({self.iexpr(s, d + 1)} ** {self.iexpr(s, d + 1)})"])

    def fexpr(self, s, d=0):
        r = self.r
        c = r.random()
        if d >= 3 or c < 0.3:
            if s.floats and r.random() < 0.6:
                return r.choice(s.floats)
            if s.stors and r.random() < 0.5:
                arr = r.choice(s.stors)
                return f"{arr}[{self.index(s, arr, d)}]"
            return r.choice(FLOAT_LITS) if r.random() < 0.6 else str(r.randint(-20, 20) / 4)
        if c < 0.38:
            return f"float({self.iexpr(s, d + 1)})"
        if c < 0.45:
            fn = r.choice(["abs", "-", "min", "max"])
            if fn in ("min", "max"):
                return f"{fn}({self.fexpr(s, d + 1)}, {self.fexpr(s, d + 1)})"
            return f"abs({self.fexpr(s, d + 1)})" if fn == "abs" else f"-({self.fexpr(s, d + 1)})"
        if c < 0.5:
            return f"({self.fexpr(s, d + 1)} if {self.cond(s, d + 1)} else {self.fexpr(s, d + 1)})"
        if c < 0.56:
            if r.random() < 0.5:
                return f"operators.{r.choice(OPS1)}({self.fexpr(s, d + 1)})"
            op = r.choice(OPS2)
            if op in ("lt", "eq", "is_close"):  # a float 1.0/0.0 (is_close: a bool)
                return f"float(operators.{op}({self.fexpr(s, d + 1)}, {self.fexpr(s, d + 1)}))"
            return f"operators.{op}({self.fexpr(s, d + 1)}, {self.fexpr(s, d + 1)})"
        if c < 0.6 and self.helpers:
            h = [x for x in self.helpers if x[2] == "float"]
            if h:
                name, args, _ = r.choice(h)
                return f"{name}({', '.join(self.expr(s, t, d + 1) for t in args)})"
        if c < 0.65:  # int / int past 2**53 is a reported divergence: the int made a float first
            num = self.iexpr(s, d + 1) if self.known else f"float({self.iexpr(s, d + 1)})"
            return f"({num} / {self.iexpr(s, d + 1)})"
        fops = ["//", "%"]
        if c < 0.7:  # int and float mixed
            op = r.choice(["+", "-", "*", "/"] + fops)
            return f"({self.iexpr(s, d + 1)} {op} {self.fexpr(s, d + 1)})"
        op = r.choice(["+", "-", "*", "/", "**", "+", "*"] + fops)
        return f"({self.fexpr(s, d + 1)} {op} {self.fexpr(s, d + 1)})"

    def expr(self, s, t, d=0):
        return self.iexpr(s, d) if t == "int" else self.fexpr(s, d)

    def cond(self, s, d=0):
        r = self.r
        c = r.random()
        op = r.choice(["<", "<=", ">", ">=", "==", "!="])
        if c < 0.45:
            e = f"{self.iexpr(s, d + 1)} {op} {self.iexpr(s, d + 1)}"
        elif c < 0.75:
            e = f"{self.fexpr(s, d + 1)} {op} {self.fexpr(s, d + 1)}"
        elif c < 0.85:
            e = f"{self.iexpr(s, d + 1)} {op} {self.fexpr(s, d + 1)}"
        elif c < 0.92 and d < 2:
            e = f"{self.cond(s, d + 1)} {r.choice(['and', 'or'])} {self.cond(s, d + 1)}"
        else:
            e = f"not {self.cond(s, d + 2)}" if d < 2 else f"{self.iexpr(s, d + 1)} > 0"
        return f"({e})" if d else e

    def bound(self, s):
        """A small loop bound, whatever the values."""
        r = self.r
        c = r.random()
        if c < 0.4:
            return str(r.randint(-2, 6))
        if c < 0.7:
            return f"({self.iexpr(s, 1)}) % {r.randint(1, 6)}"
        small = [a for a in s.arrays() if a not in s.big]
        if c < 0.85 and small:
            return f"len({r.choice(small)})"
        return f"min(max({self.iexpr(s, 1)}, -3), {r.randint(0, 7)})"


def indent(lines, n=4):
    return [" " * n + ln for ln in lines]


# ---- njit programs --------------------------------------------------------------------------

KINDS = ["int", "int", "float", "float", "tuple", "list", "stor", "stor"]


class NjitGen(Code):
    """A function for njit: its parameters' kinds, its text (twice: p for the interpreter, q for
    njit) and its helpers."""

    def __init__(self, rng, known):
        super().__init__(rng, known)
        self.loop = 0
        self.prange = False
        self.max_depth = 3
        self.counters = set()  # while loops' counters: assigned only by their += 1

    def helper(self, k):
        """A helper function: one to three numbers in, one out; some also take an int list and
        write it (the caller's array changes)."""
        r = self.r
        ret = r.choice(["int", "float"])
        args = [r.choice(["int", "float"]) for _ in range(r.randint(1, 3))]
        s = Scope()
        names = []
        for i, t in enumerate(args):
            names.append(f"a{i}")
            (s.ints if t == "int" else s.floats).append(f"a{i}")
        writes = r.random() < 0.3
        sub = Code(r, self.known, self.helpers)
        lines = []
        if writes:
            names.append("arr")
            s.lists.append("arr")
            lines.append(f"arr[({sub.iexpr(s)}) % len(arr)] = {sub.iexpr(s)}")
        if r.random() < 0.5:
            lines += [f"if {sub.cond(s)}:", f"    return {sub.expr(s, ret)}"]
        if r.random() < 0.3:
            lines += ["acc = 0", f"for k in range({sub.bound(s)}):",
                      f"    acc = acc + k * ({sub.iexpr(s)})"]
            s.ints.append("acc")
        lines.append(f"return {sub.expr(s, ret)}")
        text = [f"def h{k}({', '.join(names)}):"] + indent(lines)
        return f"h{k}", args, ret, writes, text

    def stmt(self, s, ind):
        r = self.r
        p = " " * ind
        c = r.random()
        if self.depth >= self.max_depth:  # only statements without a block
            c = r.choice([0.1, 0.1, 0.3, 0.3, 0.55 if self.loop else 0.1])
        if c < 0.25:
            if self.prange and self.loop == 1 and r.random() < 0.5:
                return [f"{p}acc += {self.iexpr(s)}"]
            mine = [v for v in (s.own_ints if self.prange else s.ints) if v not in self.counters]
            mine_f = s.own_floats if self.prange else s.floats
            if mine and (r.random() < 0.5 or not mine_f):
                v = r.choice(mine)
                if r.random() < 0.3:
                    return [f"{p}{v} {r.choice(['+=', '-=', '*=', '//=', '%='])} {self.iexpr(s)}"]
                return [f"{p}{v} = {self.iexpr(s)}"]
            if mine_f:
                v = r.choice(mine_f)
                if r.random() < 0.3:
                    return [f"{p}{v} {r.choice(['+=', '-=', '*=', '/='])} {self.fexpr(s)}"]
                return [f"{p}{v} = {self.fexpr(s)}"]
            return [f"{p}pass"]
        if c < 0.4:
            return self.store(s, p)
        if c < 0.5:
            lines = [f"{p}if {self.cond(s)}:"]
            self.depth += 1
            lines += self.block(s, ind + 4)
            if r.random() < 0.4:
                lines += [f"{p}elif {self.cond(s)}:"] + self.block(s, ind + 4)
            if r.random() < 0.5:
                lines += [f"{p}else:"] + self.block(s, ind + 4)
            self.depth -= 1
            return lines
        if c < 0.57 and self.loop:
            # no iteration of a parallel loop can end the others: break leaves inner loops only
            jump = "continue" if self.prange and self.loop == 1 else r.choice(["break", "continue"])
            return [f"{p}if {self.cond(s)}:", f"{p}    {jump}"]
        if c < 0.62 and not self.prange:
            return [f"{p}if {self.cond(s)}:", f"{p}    return {self.expr(s, self.ret)}"]
        if c < 0.66 and self.helpers:
            return self.helper_call(s, p)
        bufs = [b for b in s.own_bufs if b not in s.frozen] if self.prange else s.writable_ints()
        if c < 0.7 and s.tuples and bufs:
            return [f"{p}to_index({self.iexpr(s)}, {r.choice(s.tuples)}, {r.choice(bufs)})"]
        return self.loop_stmt(s, ind)

    def store(self, s, p):
        r = self.r
        if self.prange and self.loop >= 1:
            # each iteration its own element: at i, of an array the loop does not read
            outs = [a for a in s.prange_outs]
            if outs and r.random() < 0.7:
                arr = r.choice(outs)
                v = self.fexpr(s) if arr in s.stors else self.iexpr(s)
                return [f"{p}{arr}[i] = {v}"] if self.loop == 1 else [f"{p}pass"]
            bufs = [b for b in s.own_bufs if b not in s.frozen]
            if bufs:
                arr = r.choice(bufs)
                return [f"{p}{arr}[{self.index(s, arr, 0)}] = {self.iexpr(s)}"]
            return [f"{p}pass"]
        ws, wi = s.writable_stors(), s.writable_ints()
        if ws and (r.random() < 0.5 or not wi):
            arr = r.choice(ws)
            if r.random() < 0.3:
                return [f"{p}{arr}[{self.index(s, arr, 0)}] += {self.fexpr(s)}"]
            return [f"{p}{arr}[{self.index(s, arr, 0)}] = {self.fexpr(s)}"]
        if wi:
            arr = r.choice(wi)
            return [f"{p}{arr}[{self.index(s, arr, 0)}] = {self.iexpr(s)}"]
        return [f"{p}pass"]

    def helper_call(self, s, p):
        r = self.r
        name, args, ret, writes = r.choice(self.helpers_full)
        vals = [self.expr(s, t) for t in args]
        if writes:
            arrs = s.own_bufs if self.prange else s.writable_ints()
            arrs = [a for a in arrs if a not in s.frozen]
            if not arrs:
                return [f"{p}pass"]
            vals.append(r.choice(arrs))
        if ret == "int":
            mine = [v for v in (s.own_ints if self.prange else s.ints) if v not in self.counters]
        else:
            mine = s.own_floats if self.prange else s.floats
        target = r.choice(mine) if mine else None
        call = f"{name}({', '.join(vals)})"
        return [f"{p}{target} = {call}" if target else f"{p}{call}"]

    def loop_stmt(self, s, ind):
        r = self.r
        p = " " * ind
        v = self.tmp("k")
        w = None
        kind = r.random()
        over = []  # arrays the loop goes over: not written inside it (Python and the compiled
        # loop read them as they go, the interpreter's zip and enumerate before the loop)
        small = [a for a in s.arrays() if a not in s.big]
        if kind < 0.45 or not small:
            a, b = self.bound(s), self.bound(s)
            form = r.choice([f"range({b})", f"range({a}, {b})",
                             f"range({a}, {b}, {r.choice(['1', '2', '3', '-1', '-2'])})",
                             f"range({b} - 1, -1, -1)"])
            head = [f"{p}for {v} in {form}:"]
            s.ints.append(v)
        elif kind < 0.65:
            arr = r.choice(small)
            head = [f"{p}for {v} in {arr}:"]
            (s.floats if arr in s.stors else s.ints).append(v)
            over = [arr]
        elif kind < 0.75:
            arr = r.choice(small)
            w = self.tmp("k")
            head = [f"{p}for {v}, {w} in enumerate({arr}):"]
            s.ints.append(v)
            (s.floats if arr in s.stors else s.ints).append(w)
            over = [arr]
        elif kind < 0.85:
            a1, a2 = r.choice(small), r.choice(small)
            w = self.tmp("k")
            head = [f"{p}for {v}, {w} in zip({a1}, {a2}):"]
            (s.floats if a1 in s.stors else s.ints).append(v)
            (s.floats if a2 in s.stors else s.ints).append(w)
            over = [a1, a2]
        else:
            head = [f"{p}{v} = 0", f"{p}while {v} < {r.randint(0, 6)}:", f"{p}    {v} += 1"]
            s.ints.append(v)
            self.counters.add(v)
        over = [a for a in over if a not in s.frozen]
        s.frozen.update(over)
        self.depth += 1
        self.loop += 1
        body = self.block(s, ind + 4)
        self.loop -= 1
        self.depth -= 1
        s.frozen.difference_update(over)
        # the loop's names are not read after it (unbound when it ran no iteration)
        for name in (v, w):
            for lst in (s.ints, s.floats, s.own_ints):
                if name in lst:
                    lst.remove(name)
        return head + body

    def block(self, s, ind):
        out = []
        for _ in range(self.r.randint(1, 3)):
            out += self.stmt(s, ind)
        return out

    def program(self):
        r = self.r
        self.helpers_full = []
        texts = []
        for k in range(r.randint(0, 2)):
            name, args, ret, writes, text = self.helper(k)
            self.helpers_full.append((name, args, ret, writes))
            if not writes:
                self.helpers.append((name, args, ret))
            texts += text + [""]
        kinds = [r.choice(KINDS) for _ in range(r.randint(1, 5))]
        if r.random() < 0.1:
            kinds.append("bool")
        names = [f"x{i}" for i in range(len(kinds))]
        s = Scope()
        s.own_ints, s.own_floats, s.own_bufs, s.prange_outs = [], [], [], []
        for n, t in zip(names, kinds):
            {"int": s.ints, "float": s.floats, "tuple": s.tuples, "list": s.lists,
             "stor": s.stors, "bool": s.ints}[t].append(n)
        self.ret = r.choice(["int", "float"])
        self.depth = 0
        body = []
        # locals, each of one type, assigned before anything reads them
        for k in range(r.randint(1, 3)):
            v = f"v{k}"
            body.append(f"{v} = {self.iexpr(s)}")
            s.ints.append(v)
        for k in range(r.randint(0, 2)):
            v = f"f{k}"
            body.append(f"{v} = {self.fexpr(s)}")
            s.floats.append(v)
        if r.random() < 0.4:
            n = r.choice(["1", "2", "4", "8", "32", "1024", "1024", "1025", "5000"])
            form = r.choice([f"[0] * {n}", f"np.zeros({n}, np.int32)", f"np.zeros({n}, np.int64)"])
            body.append(f"b0 = {form}")
            s.bufs.append("b0")
            if int(n) > 32:
                s.big.add("b0")
        self.parallel = r.random() < 0.25
        if self.parallel:
            body += self.prange_loop(s)
        body += self.block(s, 0)
        body.append(f"return {self.expr(s, self.ret)}")
        self.kinds = kinds
        fn = lambda name: [f"def {name}({', '.join(names)}):"] + indent(body) + [""]
        self.text = "\n".join(texts + fn("p") + fn("q"))
        return self

    def prange_loop(self, s):
        """A prange loop: each iteration writes its own element of arrays the loop does not
        read, adds ints into acc, and keeps its variables to itself."""
        r = self.r
        outs = [a for a in s.lists + s.stors if r.random() < 0.6]
        n = r.choice([f"len({outs[0]})"] * 3 + [self.bound(s), "300"] if outs else
                     [self.bound(s), "300", "1000"])
        lines = ["acc = 0", f"for i in prange({n}):"]
        s.prange_outs = outs
        s.readonly = set(outs)
        outer_ints, outer_floats = list(s.ints), list(s.floats)
        s.ints.append("i")
        inner = []
        for k in range(r.randint(0, 2)):
            v = f"w{k}"
            inner.append(f"{v} = {self.iexpr(s)}")
            s.ints.append(v)
            s.own_ints.append(v)
        if r.random() < 0.3:
            v = "g0"
            inner.append(f"{v} = {self.fexpr(s)}")
            s.floats.append(v)
            s.own_floats.append(v)
        if r.random() < 0.3:
            inner.append("ib = [0] * 8")
            s.own_bufs.append("ib")
            s.bufs.append("ib")
        # outs are not read inside: reading them is what the loop's analysis does not check
        saved = (list(s.lists), list(s.stors))
        s.lists = [a for a in s.lists if a not in outs]
        s.stors = [a for a in s.stors if a not in outs]
        self.prange, self.loop = True, 1
        self.depth = 1
        inner += self.block(s, 0)
        inner += self.block(s, 0)
        self.prange, self.loop, self.depth = False, 0, 0
        s.lists, s.stors = saved
        s.ints, s.floats = outer_ints + ["acc"], outer_floats
        s.bufs = [b for b in s.bufs if b not in s.own_bufs]
        s.readonly = set()
        s.prange_outs = []
        return lines + indent(inner, 4)


# ---- cuda.jit kernels -----------------------------------------------------------------------

SHARED = {"float64": "d", "float32": "f", "int32": "i", "int64": "l"}


class CudaGen(Code):
    """A kernel, its reference in the interpreter, and its launches."""

    def __init__(self, rng, known):
        super().__init__(rng, known)
        self.max_depth = 2

    def device_fn(self, k):
        r = self.r
        ret = r.choice(["int", "float"])
        args = [r.choice(["int", "float"]) for _ in range(r.randint(1, 2))]
        s = Scope()
        for i, t in enumerate(args):
            (s.ints if t == "int" else s.floats).append(f"a{i}")
        sub = Code(r, self.known, self.helpers)
        lines = []
        if r.random() < 0.5:
            lines += [f"if {sub.cond(s)}:", f"    return {sub.expr(s, ret)}"]
        if r.random() < 0.3:
            lines += ["acc = 0", f"for k in range({sub.bound(s)}):",
                      f"    acc = acc + k * ({sub.iexpr(s)})"]
            s.ints.append("acc")
        lines.append(f"return {sub.expr(s, ret)}")
        names = ", ".join(f"a{i}" for i in range(len(args)))
        text = ["@cuda.jit(device=True)", f"def d{k}({names}):"] + indent(lines)
        return (f"d{k}", args, ret), text

    def phase_stmts(self, s, n):
        """Statements of one thread in a phase: assignments of the phase's own variables, local
        array stores, branches and a small loop."""
        r = self.r
        out = []
        for _ in range(n):
            c = r.random()
            if c < 0.45:
                if r.random() < 0.5:
                    out.append(f"pv = {self.iexpr(s)}")
                else:
                    out.append(f"pf = {self.fexpr(s)}")
            elif c < 0.6 and self.loc:
                # (a local array of int32 holds 64-bit ints, as njit's np.zeros(n, np.int32)
                # and the interpreter's lists: no wrap, unlike a shared one)
                out.append(f"loc[{self.index(s, 'loc', 0)}] = {self.iexpr(s)}")
            elif c < 0.7 and self.loc and self.loc_n <= 32 and self.loc_dt == "l":
                out.append(f"to_index(({self.iexpr(s)}) % 64, t, loc)")
            elif c < 0.85:
                out += [f"if {self.cond(s)}:", f"    pf = pf + {self.fexpr(s)}"]
                if r.random() < 0.5:
                    out += ["else:", f"    pv = pv - ({self.iexpr(s)})"]
            else:
                k = self.tmp("j")
                out += [f"for {k} in range({self.bound(s)}):"]
                s.ints.append(k)
                out += [f"    pv = pv + {k} * ({self.iexpr(s)})"]
                s.ints.remove(k)
        return out

    def program(self):
        r = self.r
        texts = []
        for k in range(r.randint(0, 2)):
            h, text = self.device_fn(k)
            self.helpers.append(h)
            texts += text + [""]
        # the launch's block: its dims, and the largest the shared array must hold
        nd = r.choice([1, 1, 2, 2, 3])
        bmax = {1: [r.choice([1, 4, 8, 16, 32, 64])],
                2: [r.choice([2, 4, 8]), r.choice([1, 2, 4, 8])],
                3: [r.choice([2, 4]), r.choice([1, 2, 4]), r.choice([1, 2])]}[nd]
        self.bmax = bmax + [1] * (3 - nd)
        self.block_nd = nd
        self.grid_nd = r.choice([1, 1, 2, 3])
        tmax = self.bmax[0] * self.bmax[1] * self.bmax[2]
        dt = r.choice(list(SHARED))
        self.sh_dt = SHARED[dt]
        two = r.random() < 0.5
        self.sh_two = two
        self.sh_shape = ((self.bmax[1] * self.bmax[2], self.bmax[0]) if two else
                         (tmax + r.choice([0, 0, 3]),))
        self.loc = r.random() < 0.6
        self.loc_dt = r.choice(["i", "l"])
        self.loc_n = r.choice([4, 8, 32, 1024]) if self.loc else 0
        self.rounds = r.choice([1, 1, 2, 3])
        self.fault = None
        if r.random() < 0.12:
            self.fault = r.choice(["race", "barrier", "unwritten", "local", "launch"])
            if self.fault == "local":
                self.loc, self.loc_n = True, r.choice([1025, 2000, 100000])
            if self.fault == "unwritten" and two:
                self.fault = "race"
        if self.fault in ("race", "barrier"):  # two threads along x at least: a block of one
            self.bmax[0] = max(self.bmax[0], 2)  # thread has no race, nor a thread that skips
            tmax = self.bmax[0] * self.bmax[1] * self.bmax[2]
            self.sh_shape = (self.bmax[1] * self.bmax[2], self.bmax[0]) if two else (tmax,)
        if self.fault == "unwritten":
            self.sh_shape = (tmax + 4,)
        s = Scope()
        s.ints += ["tx", "ty", "tz", "bx", "by", "bdx", "bdy", "gdx", "tid", "g", "n", "pv"]
        s.floats += ["f", "pf"]
        s.stors.append("x")
        s.tuples.append("t")
        if self.loc:
            s.bufs.append("loc")
        sh_int = self.sh_dt in "il"
        # phase A: the thread's own value into its own element
        a = self.phase_stmts(s, r.randint(1, 4))
        own = "sh[ty + tz * bdy, tx]" if two else "sh[tid]"
        val = ("WRAP(pv)" if self.sh_dt == "i" else "pv") if sh_int else "pf + float(pv % 1000)"
        if self.fault == "race":
            own = "sh[0, 0]" if two else "sh[0]"
        a.append(f"{own} = {val}")
        # phase B: its neighbours' values
        b = self.phase_stmts(s, r.randint(0, 3))
        c1, c2 = r.randint(0, 5), r.randint(0, 5)
        nb = (f"sh[(ty + tz * bdy + {c1}) % (bdy * bdz), (tx + {c2}) % bdx]" if two
              else f"sh[(tid + {c1}) % (bdx * bdy * bdz)]")
        if self.fault == "unwritten":
            nb = f"sh[bdx * bdy * bdz + {c1 % 4}]"
        b.append(f"acc = acc * 0.5 + float({nb}) + pf")
        self.phase_a, self.phase_b = a, b
        self.texts = texts
        return self

    def coords(self, kernel):
        """The names each phase reads, from CUDA's variables or the reference's loops."""
        if kernel:
            lines = ["tx = cuda.threadIdx.x", "ty = cuda.threadIdx.y", "tz = cuda.threadIdx.z",
                     "bx = cuda.blockIdx.x", "by = cuda.blockIdx.y", "bz = cuda.blockIdx.z",
                     "bdx = cuda.blockDim.x", "bdy = cuda.blockDim.y", "bdz = cuda.blockDim.z",
                     "gdx = cuda.gridDim.x", "gdy = cuda.gridDim.y"]
        else:
            lines = ["bdx = block[0]", "bdy = block[1]", "bdz = block[2]",
                     "gdx = grid[0]", "gdy = grid[1]"]
        return lines + ["tid = (tz * bdy + ty) * bdx + tx",
                        "g = ((bz * gdy + by) * gdx + bx) * (bdx * bdy * bdz) + tid",
                        "pv = 0", "pf = 0.0"]

    def kernel_text(self):
        dims = self.sh_shape if len(self.sh_shape) > 1 else self.sh_shape[0]
        dt = {v: k for k, v in SHARED.items()}[self.sh_dt]
        body = [f"sh = cuda.shared.array({dims}, numba.{dt})"]
        if self.loc:
            body.append(f"loc = cuda.local.array({self.loc_n}, "
                        f"numba.{'int32' if self.loc_dt == 'i' else 'int64'})")
        body += ["acc = 0.0", f"for rnd in range({self.rounds}):"]
        phase_a = list(self.phase_a)
        if self.fault == "barrier":
            phase_a += ["if tx > 0:", "    cuda.syncthreads()"]
        body += indent(self.coords(True) + phase_a + ["cuda.syncthreads()"] +
                       self.coords(True)[-2:] + self.phase_b + ["cuda.syncthreads()"])
        body += self.coords(True)[:-2] + ["if g < len(out):", "    out[g] = acc"]
        # an int32 array's store keeps the low 32 bits, which the reference writes out
        return [ln.replace("WRAP(", "(") for ln in
                ["@cuda.jit", "def k(out, x, n, f, t):"] + indent(body)]

    def reference_text(self):
        """Plain loops over blocks and threads, a phase for all threads, then the next; each
        thread's acc and local array kept between them."""
        two = self.sh_two
        n_sh = self.sh_shape[0] * (self.sh_shape[1] if two else 1)
        if self.sh_dt == "f":
            alloc = f"sh = minitorch.zeros(({n_sh},))._tensor._storage"
        else:
            alloc = f"sh = [{'0.0' if self.sh_dt == 'd' else '0'}] * {n_sh}"
        width = self.sh_shape[1] if two else 0

        def flat(lines):  # sh[a, b] -> sh[(a) * width + b]
            out = []
            for ln in lines:
                out.append(re.sub(r"sh\[(.*), ([^\]]*)\]",
                                  lambda m: f"sh[({m.group(1)}) * {width} + {m.group(2)}]", ln)
                           if two else ln)
            return out

        threads = ["for tz in range(bdz):", "    for ty in range(bdy):",
                   "        for tx in range(bdx):"]

        def each(lines):
            pre = ["tid = (tz * bdy + ty) * bdx + tx",
                   "g = ((bz * gdy + by) * gdx + bx) * (bdx * bdy * bdz) + tid",
                   "pv = 0", "pf = 0.0", "acc = accs[tid]"]
            if self.loc:
                pre.append("loc = locs[tid]")
            return threads + indent(pre + flat(lines) + ["accs[tid] = acc"], 12)

        body = ["bdx = block[0]", "bdy = block[1]", "bdz = block[2]", "gdx = grid[0]",
                "gdy = grid[1]", "T = bdx * bdy * bdz",
                "for bz in range(grid[2]):", "    for by in range(grid[1]):",
                "        for bx in range(grid[0]):"]
        blk = [alloc, "accs = [0.0] * T"]
        if self.loc:
            blk.append(f"locs = [[0] * {self.loc_n} for q in range(T)]")
        blk += [f"for rnd in range({self.rounds}):"]
        blk += indent(each(self.phase_a)) + indent(each(self.phase_b))
        blk += threads + indent(["tid = (tz * bdy + ty) * bdx + tx",
                                 "g = ((bz * gdy + by) * gdx + bx) * T + tid",
                                 "if g < len(out):", "    out[g] = accs[tid]"], 12)
        body += indent(blk, 12)
        return [ln.replace("WRAP(", "wrap32(") for ln in
                ["def ref(out, x, n, f, t, grid, block):"] + indent(body)]

    def launch(self, r):
        """A launch's grid and block as the script writes them, and as 3-tuples."""
        def shape(maxes, nd, least=1):
            dims = [r.randint(min(least, m) if i == 0 else 1, m) for i, m in enumerate(maxes[:nd])]
            return (dims[0] if nd == 1 and r.random() < 0.5 else tuple(dims)), dims + [1] * (3 - nd)
        grid, g3 = shape([4, 2, 2], self.grid_nd)
        block, b3 = shape(self.bmax, self.block_nd, 2 if self.fault in ("race", "barrier") else 1)
        return grid, block, g3, b3


# ---- scripts ----------------------------------------------------------------------------------

def njit_script(gen, seed, runs, probe):
    kinds = gen.kinds
    draw = {"int": "gi()", "float": "gf()", "tuple": "gt()", "list": "gl()", "stor": "gs()",
            "bool": "random.random() < 0.5"}
    outs = [i for i, k in enumerate(kinds) if k in ("list", "stor")]
    lines = [PRELUDE, gen.text,
             f"q = njit(parallel={gen.parallel})(q)",
             # a parallel loop's error: which iterations ran before it, and which error of
             # several iterations' is raised, is chance
             f"LOOSE = {2 * int(gen.parallel)}",
             f"ALL = {gen.known}",
             f"TO_INDEX = {'to_index(' in gen.text}",
             "",
             "def ARGS(s):",
             "    random.seed(s)",
             f"    return [{', '.join(draw[k] for k in kinds)}]",
             "",
             "def call(fn, args):",
             "    try:",
             "        res = ['ok', fn(*args)]",
             "    except Exception as e:",
             "        res = [type(e).__name__, str(e)]",
             f"    return res + after(args, {outs})",
             "",
             "def REF(s):",
             "    return call(p, ARGS(s))",
             "",
             "def RUN(s):",
             "    return call(q, ARGS(s))",
             "",
             f"first = RUN({seed - 1})",
             "if first[0] == 'CompileError':",
             "    print('REFUSED')",
             f"    q(*ARGS({seed - 1}))",
             "parallel_diagnostics(q)",
             LOOP.format(runs=runs, base=seed)]
    if probe:
        lines += probe_njit(probe)
    return "\n".join(lines) + "\n"


def probe_njit(kind):
    """A call that never returns, after the runs: SIGINT must end it."""
    bodies = {
        "nested": ["def z(n):", "    s = 0", "    while True:", "        for j in range(n):",
                   "            s = (s + j) % 1000003", "    return s", "z = njit(z)"],
        "flat": ["def z(n):", "    s = 0", "    k = 0", "    while k >= 0:",
                 "        s = (s + k) % n", "        k = (k + 1) % 1000", "    return s",
                 "z = njit(z)"],
        "prange": ["def z(n):", "    acc = 0", "    for i in prange(n):", "        s = 0",
                   "        while s >= 0:", "            s = (s + i) % 7", "        acc += s",
                   "    return acc", "z = njit(parallel=True)(z)"],
        "range": ["def z(n):", "    s = 0", "    for k in range(2 ** 62):", "        s += k % n",
                  "    return s", "z = njit(z)"],
    }
    return bodies[kind] + ["print('PROBE')", "z(1000)"]


def cuda_script(gen, seed, runs, probe):
    r = random.Random(seed)
    launches = [gen.launch(r) for _ in range(8)]
    if gen.fault == "launch":
        bad = r.choice(["0", "1025", "(33, 33)", "(1, 1, 65)", "-1", "(2, 0)"])
        launches = [(l[0], bad, l[2], l[3]) for l in launches]
    lines = [PRELUDE, "%cuda simulate",
             "def wrap32(v):",
             "    return (v % 4294967296 + 2147483648) % 4294967296 - 2147483648",
             ""] + gen.texts + gen.kernel_text() + [""] + gen.reference_text() + [""]
    lines += ["LAUNCHES = [" + ", ".join(f"[{g}, {b}, {g3}, {b3}]" for g, b, g3, b3 in launches)
              + "]",
              "LOOSE = 2",  # blocks run in parallel: after an error, which wrote is chance
              f"ALL = {gen.known}",
              f"TO_INDEX = {any('to_index(' in ln for ln in gen.phase_a + gen.phase_b)}",
              "",
              "def ARGS(s):",
              "    random.seed(s)",
              "    L = LAUNCHES[s % len(LAUNCHES)]",
              "    T = L[2][0] * L[2][1] * L[2][2] * L[3][0] * L[3][1] * L[3][2]",
              "    size = max(1, T - random.choice([0, 0, 0, 1, 5]))",
              "    out = minitorch.zeros((size,))._tensor._storage",
              "    return [L, out, gs(), gi(), gf(), gt()]",
              "",
              "def RUN(s):",
              "    L, out, x, n, f, t = ARGS(s)",
              "    try:",
              "        k[L[0], L[1]](out, x, n, f, t)",
              "        res = ['ok', None]",
              "    except Exception as e:",
              "        res = [type(e).__name__, str(e)]",
              "    return res + [[v for v in out]]",
              "",
              "def REF(s):",
              "    L, out, x, n, f, t = ARGS(s)",
              "    try:",
              "        ref(out, x, n, f, t, L[2], L[3])",
              "        res = ['ok', None]",
              "    except Exception as e:",
              "        res = [type(e).__name__, str(e)]",
              "    return res + [[v for v in out]]",
              ""]
    if gen.fault:  # a fault: the launch must raise, located; there is no reference to compare
        lines += ["def REF(s):", "    return ['fault', None]", ""]
    lines += [f"first = RUN({seed - 1})",
              "if first[0] == 'RuntimeError' and 'could not build' in first[1]:",
              "    print('BUILD FAILED')",
              "if first[0] == 'CompileError' or first[0] == 'RuntimeError' and "
              "'could not build' in first[1]:",
              "    print('REFUSED')",
              f"    L, out, x, n, f, t = ARGS({seed - 1})",
              "    k[L[0], L[1]](out, x, n, f, t)",
              LOOP.format(runs=runs, base=seed)]
    if probe:
        lines += ["@cuda.jit", "def z(out, n):", "    s = 0", "    while s >= 0:",
                  "        s = (s + cuda.threadIdx.x + 1) % n", "    out[0] = s",
                  "print('PROBE')", "z[2, 32](minitorch.zeros((1,))._tensor._storage, 7)"]
    return "\n".join(lines) + "\n"


# ---- running a script -------------------------------------------------------------------------

class Outcome:
    def __init__(self):
        self.lines, self.stderr, self.rc = [], "", None
        self.stalled = False      # no output for the stall time: SIGINT sent
        self.deaf = False         # and it did not end
        self.probe_ok = None      # the endless call ended by SIGINT (None: no probe)
        self.wall = 0.0


def run_kernel(kernel, path, env, stall, probe):
    """Runs `kernel run path`, reading its output as it comes. When nothing comes for `stall`
    seconds, or `probe` and PROBE was printed 1 s ago (the endless call compiled and running),
    sends SIGINT; then waits 10 s for the
    end, and kills it if it has not come."""
    o = Outcome()
    t0 = time.monotonic()
    proc = subprocess.Popen([kernel, "run", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    sel.register(proc.stderr, selectors.EVENT_READ)
    buf, err = b"", []
    last = time.monotonic()
    interrupted_at = None
    probe_at = None
    open_ = 2
    while open_:
        now = time.monotonic()
        if interrupted_at is None:
            if probe_at is not None and now - probe_at > 1.0:
                proc.send_signal(signal.SIGINT)
                interrupted_at = now
            elif now - last > stall:
                o.stalled = True
                proc.send_signal(signal.SIGINT)
                interrupted_at = now
        elif now - interrupted_at > 10:
            o.deaf = True
            os.killpg(proc.pid, signal.SIGKILL)
            break
        for key, _ in sel.select(timeout=0.1):
            data = os.read(key.fileobj.fileno(), 65536)
            if not data:
                sel.unregister(key.fileobj)
                open_ -= 1
                continue
            last = time.monotonic()
            if key.fileobj is proc.stdout:
                buf += data
                if probe and probe_at is None and b"PROBE\n" in buf:
                    probe_at = time.monotonic()
            else:
                err.append(data)
    proc.wait()
    o.rc = proc.returncode
    o.lines = buf.decode(errors="replace").splitlines()
    o.stderr = b"".join(err).decode(errors="replace")
    if probe_at is not None:
        o.probe_ok = not o.deaf and "KeyboardInterrupt" in o.stderr
    o.wall = time.monotonic() - t0
    return o


TB_FRAME = re.compile(r"^  In (\w+)\(\), line \d+")
TB_CELL = re.compile(r"^  Cell line \d+")


def located(stderr, names):
    """Whether a traceback ends in the program's code: its last frame a line of one of the
    program's functions, or of the cell (an error at the call, such as a launch's shape)."""
    frames = [ln for ln in stderr.splitlines() if TB_FRAME.match(ln) or TB_CELL.match(ln)]
    if not frames:
        return False
    m = TB_FRAME.match(frames[-1])
    return (m is None and TB_CELL.match(frames[-1]) is not None) or (m and m.group(1) in names)


def reason_of(line):
    """A refusal's reason without its names and numbers: the bucket it is counted in."""
    text = line.split(": runs in the interpreter: ", 1)[-1]
    text = re.sub(r"\(in \w+\(\)\)", "", text)
    text = re.sub(r"\b[a-z]\w*\d+\b|\b\d+\b", "N", text)
    return text.strip()[:110]


# ---- one program --------------------------------------------------------------------------------

class Program:
    def __init__(self, index, seed, cuda, known, runs, probe, tcc):
        self.index, self.seed, self.cuda, self.known = index, seed, cuda, known
        self.runs, self.probe, self.tcc = runs, probe, tcc


def make_program(pr):
    rng = random.Random(pr.seed)
    if pr.cuda:
        gen = CudaGen(rng, pr.known).program()
        text = cuda_script(gen, pr.seed * 1000, pr.runs, pr.probe)
        names = {"k", "ref", "wrap32"} | {h[0] for h in gen.helpers}
    else:
        gen = NjitGen(rng, pr.known).program()
        text = njit_script(gen, pr.seed * 1000, pr.runs, pr.probe)
        names = {"p", "q"} | {f"h{k}" for k in range(3)}
    return gen, text, names


def run_program(pr, kernel, work, stall):
    """Runs one program: its outcome as a dict of figures and findings."""
    gen, text, names = make_program(pr)
    res = {"index": pr.index, "seed": pr.seed, "cuda": pr.cuda, "runs": 0, "same": 0,
           "overflow": 0, "errors": collections.Counter(), "refused": None, "fallback": None,
           "findings": [], "fault": getattr(gen, "fault", None), "tcc": pr.tcc,
           "compiled": False, "probe": pr.probe, "known": collections.Counter()}
    path = os.path.join(work, f"p{pr.index}.mt")
    with open(path, "w") as f:
        f.write(text)
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"),
               KMP_BLOCKTIME="0", GOMP_SPINCOUNT="0")
    if pr.tcc:
        env["MT_CC"] = "tcc"
    o = run_kernel(kernel, path, env, stall, pr.probe)
    res["wall"] = o.wall

    def finding(kind, detail, seed_run=None):
        res["findings"].append({"kind": kind, "detail": detail, "script": text,
                                "run": seed_run, "program": pr.seed, "cuda": pr.cuda,
                                "tcc": pr.tcc})

    def c_failure(what, text_c):
        why = c_error(text_c)
        for known, name in C_KNOWN:
            if known in why and not pr.known:
                res["known"]["known, programs: " + name] += 1
                return
        finding(what + why, text_c)

    if o.deaf:
        finding("hang deaf to SIGINT", o.stderr[-2000:])
    elif o.rc is not None and o.rc < 0:
        finding(f"killed by signal {-o.rc}", o.stderr[-3000:])
    elif re.search(r"AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:", o.stderr):
        finding("sanitizer report", o.stderr[-3000:])
    summary = [ln for ln in o.lines if ln.startswith("SUMMARY ")]
    if "BUILD FAILED" in o.lines:
        c_failure("the simulator's C for a kernel does not compile: ", o.stderr[-3000:])
        return res
    if "REFUSED" in o.lines:
        res["refused"] = first_error_line(o.stderr)
        if not located(o.stderr, names):
            finding("refusal not located", o.stderr[-2000:])
        return res
    if o.stalled and not summary:
        last = [ln for ln in o.lines if ln.startswith("PROGRESS")]
        finding("stalled (ended by SIGINT)" if "KeyboardInterrupt" in o.stderr else "stalled",
                f"after {last[-1] if last else 'no progress line'}\n{o.stderr[-2000:]}")
        return res
    if not summary:
        if not res["findings"]:
            finding("script ended early", o.stderr[-3000:])
        return res
    if not pr.cuda:
        at = [i for i, ln in enumerate(o.lines) if re.match(r"q\(.*\): ", ln)]
        diag = [o.lines[i] for i in at]
        if diag and "runs in the interpreter" in diag[0]:
            res["fallback"] = reason_of(diag[0])
        elif diag and "compiled to native code" in diag[0]:
            res["compiled"] = True
        # the C the compiler wrote does not compile: the function runs in the interpreter, or
        # keeps tcc's build of its first call where gcc's failed
        failed = [i for i, ln in enumerate(o.lines) if "the C compiler failed" in ln]
        if failed:
            c_failure("njit's C does not compile: ", "\n".join(o.lines[failed[0]:failed[0] + 12]))
    else:
        res["compiled"] = True
    counts, errs, first_err, known = summary[0].split(" | ")
    res["known"].update(eval(known))
    _, runs, same, overflow, shown = counts.split()
    res["runs"], res["same"], res["overflow"] = int(runs), int(same), int(overflow)
    errs = eval(errs)  # the script printed a dict of names and counts
    first_err = eval(first_err)
    res["errors"].update(errs)
    for ln in o.lines:
        if ln.startswith("MISMATCH "):
            _, r, rest = ln.split(" ", 2)
            finding("result differs from the interpreter's", rest, pr.seed * 1000 + int(r))
    if pr.probe:
        res["probe_ok"] = bool(o.probe_ok)
        if not o.probe_ok:
            finding(f"endless call ({pr.probe}) not ended by SIGINT", o.stderr[-2000:])
    if gen is not None and getattr(gen, "fault", None) and not errs:
        finding(f"kernel with a {gen.fault} fault ran without an error", "")
    # every kind of error the compiled code raised: rerun uncaught, it must be located
    if res["compiled"]:
        loose = pr.cuda or gen.parallel  # threads raising different errors: either is raised
        for ename, r in sorted(first_err.items())[:4]:
            check_located(pr, text, names, kernel, work, env, None if loose else ename,
                          pr.seed * 1000 + r, finding)
    return res


# The C compilers' errors on C that the compiler wrote, reported: counted apart, as KNOWN's
C_KNOWN = []


def c_error(text):
    """The C compiler's first error, without its numbers: what a finding is grouped by."""
    m = re.search(r"error: (.*)", text)
    return re.sub(r"\d+", "N", m.group(1))[:90] if m else "?"


def first_error_line(stderr):
    lines = [ln for ln in stderr.splitlines() if re.match(r"^\w+(Error|Exception|Interrupt)", ln)]
    return reason_of(lines[-1]) if lines else "?"


def check_located(pr, text, names, kernel, work, env, ename, s, finding):
    cut = text.index("same = 0\n")
    call = ("L, out, x, n, f, t = ARGS(%d)\nk[L[0], L[1]](out, x, n, f, t)\n" % s if pr.cuda
            else "q(*ARGS(%d))\n" % s)
    path = os.path.join(work, f"p{pr.index}-{ename or s}.mt")
    with open(path, "w") as f:
        f.write(text[:cut] + call)
    if pr.tcc:  # tcc's build in the cache may not load in another process: it builds again
        env = dict(env, XDG_CACHE_HOME=os.path.join(work, f"cache-{pr.index}"))
    o = run_kernel(kernel, path, env, 120, None)
    last = [ln for ln in o.stderr.splitlines() if ln and not ln.startswith(" ")]
    what = ename or "error"
    if o.rc is not None and o.rc < 0:
        finding(f"killed by signal {-o.rc} (rerun of a {what})", o.stderr[-2000:], s)
    elif not last or not re.match(r"\w+(Error|Exception): ", last[-1]) or \
            (ename and not last[-1].startswith(ename + ":")):
        finding(f"{what} not raised again when rerun", o.stderr[-2000:], s)
    elif not located(o.stderr, names):
        finding(f"{what} not located", o.stderr[-2000:], s)


# ---- the campaign -------------------------------------------------------------------------------

def campaign(kernel, programs, runs, cuda_runs, cuda_share, seed, jobs, out, known, stall,
             log=print):
    rng = random.Random(seed)
    plan = []
    for i in range(programs):
        cuda = rng.random() < cuda_share
        probe = None
        if rng.random() < 0.04:
            probe = "cuda" if cuda else rng.choice(["nested", "flat", "prange", "range"])
        plan.append(Program(i, seed * 100000 + i, cuda, known, cuda_runs if cuda else runs,
                            probe, not cuda and rng.random() < 0.5))
    work = tempfile.mkdtemp(prefix="jit-fuzz-")
    t0 = time.monotonic()
    results = []
    try:
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            futs = [ex.submit(run_program, p, kernel, work, stall) for p in plan]
            for n, fut in enumerate(concurrent.futures.as_completed(futs), 1):
                results.append(fut.result())
                if n % 50 == 0:
                    log(f"  {n}/{programs} programs, {sum(r['runs'] for r in results)} runs, "
                        f"{sum(len(r['findings']) for r in results)} findings, "
                        f"{time.monotonic() - t0:.0f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    wall = time.monotonic() - t0
    return report(results, wall, out, log)


def report(results, wall, out, log):
    stats = {
        "known": sum(sum(r.get("known", {}).values()) for r in results),
        "programs": len(results),
        "njit": sum(1 for r in results if not r["cuda"]),
        "cuda": sum(1 for r in results if r["cuda"]),
        "executions": sum(r["runs"] for r in results),
        "compared equal": sum(r["same"] for r in results),
        "interpreter overflowed": sum(r["overflow"] for r in results),
        "wall_s": round(wall, 1),
    }
    refused = collections.Counter(r["refused"] for r in results if r["refused"])
    fallback = collections.Counter(r["fallback"] for r in results if r["fallback"])
    errors, known = collections.Counter(), collections.Counter()
    for r in results:
        errors.update(r["errors"])
        known.update(r.get("known", {}))
    faults = collections.Counter(r["fault"] for r in results if r["fault"])
    findings = [f for r in results for f in r["findings"]]
    log(f"programs {stats['programs']} (njit {stats['njit']}, of them "
        f"{sum(1 for r in results if r['tcc'])} built by tcc alone; cuda.jit {stats['cuda']}), "
        f"compiled {sum(1 for r in results if r['compiled'])}")
    log(f"executions {stats['executions']}: equal to the interpreter "
        f"{stats['compared equal']}, interpreter's int overflow {stats['interpreter overflowed']}")
    log(f"wall time {stats['wall_s']} s")
    log("refused with a CompileError, by reason:")
    for k, v in refused.most_common():
        log(f"  {v:6d}  {k}")
    log("njit functions left to the interpreter, by reason:")
    for k, v in fallback.most_common():
        log(f"  {v:6d}  {k}")
    log("errors raised by compiled code (runs), by type: " +
        ", ".join(f"{k} {v}" for k, v in errors.most_common()))
    log("runs (or programs) counted apart (not findings): races the compiled code found, and "
        "reported divergences")
    for k, v in known.most_common():
        log(f"  {v:8d}  {k}")
    probes = [r for r in results if r.get("probe_ok") is not None]
    log(f"endless calls ended by SIGINT: {sum(r['probe_ok'] for r in probes)} of {len(probes)} ("
        + ", ".join(f"{k} {v}" for k, v in
                    collections.Counter(r["probe"] for r in probes).most_common()) + ")")
    log("kernels with a planted fault: " + ", ".join(f"{k} {v}" for k, v in faults.items()))
    log(f"findings: {len(findings)}")
    kinds = collections.Counter(f["kind"] for f in findings)
    for k, v in kinds.most_common():
        log(f"  {v:6d}  {k}")
    if out and findings:
        os.makedirs(out, exist_ok=True)
        for i, f in enumerate(findings):
            base = os.path.join(out, f"finding-{i:04d}")
            with open(base + ".mt", "w") as fh:
                fh.write(f["script"])
            with open(base + ".txt", "w") as fh:
                fh.write(f"{f['kind']}\nprogram seed {f['program']}, arguments' seed {f['run']}, "
                         f"{'cuda' if f['cuda'] else 'njit'}{', MT_CC=tcc' if f['tcc'] else ''}"
                         f"\n\n{f['detail']}\n")
        log(f"findings written to {out}")
    return stats, findings


def minimize(kernel, program, args_seed, known, tcc, log=print):
    """Deletes the lines of an njit finding's function (a line, or a block with its header) as
    long as the interpreter's and the compiled results still differ as they did (the same pair
    of outcomes' kinds): the smallest program this finds, as a script."""
    pr = Program(0, program, False, known, 0, None, tcc)
    text = make_program(pr)[1]
    text = text[:text.index("same = 0\n")]
    text += f"print(REF({args_seed}))\nprint(RUN({args_seed}))\nprint(RUN({args_seed}))\n"
    head, rest = text.split("def p(", 1)
    sig, rest = rest.split("\n", 1)
    body, tail = rest.split("\ndef q(", 1)
    tail = tail.split("\n", 1)[1].split("\n\n", 1)[1]
    lines = body.rstrip("\n").split("\n")
    work = tempfile.mkdtemp(prefix="jit-min-")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
    if tcc:
        env["MT_CC"] = "tcc"

    def script(ls):
        b = "\n".join(ls) + "\n"
        return head + "def p(" + sig + "\n" + b + "\ndef q(" + sig + "\n" + b + "\n" + tail

    def outcome(ls):
        path = os.path.join(work, "m.mt")
        with open(path, "w") as f:
            f.write(script(ls))
        o = run_kernel(kernel, path, env, 30, None)
        res = o.lines[-3:]
        if len(res) != 3 or o.rc:
            return None
        kinds = tuple(r.split(",")[0].strip("[' ") for r in res)
        return kinds if res[0] != res[2] else None

    want = outcome(lines)
    if want is None:
        log("the finding does not show in this script")
        return None
    changed = True
    while changed:
        changed = False
        i = 0
        while i < len(lines):
            ind = len(lines[i]) - len(lines[i].lstrip())
            j = i + 1
            while j < len(lines) and len(lines[j]) - len(lines[j].lstrip()) > ind:
                j += 1
            trial = lines[:i] + lines[j:]
            if trial and trial[-1].strip().startswith("return") and outcome(trial) == want:
                lines = trial
                changed = True
            else:
                i += 1
    shutil.rmtree(work, ignore_errors=True)
    return script(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--programs", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=10000, help="runs of each njit program")
    ap.add_argument("--cuda-runs", type=int, default=2000, help="launches of each kernel")
    ap.add_argument("--cuda-share", type=float, default=0.3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--stall", type=float, default=120.0,
                    help="seconds without output before SIGINT")
    ap.add_argument("--out", default="jit-fuzz-findings")
    ap.add_argument("--known", action="store_true",
                    default=os.environ.get("JIT_FUZZ_KNOWN") == "1")
    ap.add_argument("--repro", type=int, nargs=2, metavar=("PROGRAM", "ARGS"),
                    help="print a script that runs program PROGRAM's seed on the arguments of "
                         "seed ARGS (a finding's two seeds), interpreted and compiled")
    ap.add_argument("--cuda", action="store_true", help="with --repro: the program is a kernel")
    ap.add_argument("--minimize", type=int, nargs=2, metavar=("PROGRAM", "ARGS"),
                    help="the smallest function (lines deleted) that still shows an njit "
                         "finding; --tcc when it was built by tcc alone")
    ap.add_argument("--tcc", action="store_true")
    a = ap.parse_args()
    if a.minimize:
        text = minimize(os.path.abspath(a.kernel), a.minimize[0], a.minimize[1], a.known, a.tcc)
        if text:
            print(text)
        return 0
    if a.repro:
        pr = Program(0, a.repro[0], a.cuda, a.known, 0, None, False)
        text = make_program(pr)[1]
        text = text[:text.index("same = 0\n")]
        # the first call runs tcc's build, the next ones gcc's (unless MT_CC=tcc)
        print(text + f"print(ARGS({a.repro[1]}))\nprint(REF({a.repro[1]}))\n"
              f"print(RUN({a.repro[1]}))\nprint(RUN({a.repro[1]}))")
        return 0
    stats, findings = campaign(os.path.abspath(a.kernel), a.programs, a.runs, a.cuda_runs,
                               a.cuda_share, a.seed, a.jobs, a.out, a.known, a.stall)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
