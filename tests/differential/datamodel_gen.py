#!/usr/bin/env python3
"""datamodel_gen.py — programs over Python's data model for user classes, run by CPython and by
the kernel (`minitorch-kernel run FILE`) and compared: tests/differential/test_datamodel.py.

From a fixed seed, each family below writes small deterministic programs (no ids, no addresses,
no hash of a str, dicts only in insertion order) that print their results; the errors a program
means to raise are caught and printed as `type(e).__name__` and `str(e)`, so CPython's messages
are the reference. Every program is seeded by its own name (random.Random("SEED:family:k")), so
adding a family or a program leaves the others' text unchanged.

Each program has one `feature` (its family: what the counts are by) and `needs`: every part of
the data model, or builtin, that its output depends on (NEEDS below says what each one is).
test_datamodel.py keeps the list of needs the kernel does not support yet (its XFAIL table).

Three groups:
  datamodel  the generated programs over + - * / // % ** @, comparisons, truth, items,
             iteration, hashing, calls, text, properties, classmethods, hooks, exceptions
  bitwise    & | ^ << >> (and their reflected and in-place forms), which the language gained
             after the rest: a group apart (pytest marker `bitwise`), to run or leave out alone
  minitorch  ten hand-written programs in MiniTorch's style: Scalar with its history, Module
             with __setattr__/__getattr__ over self.__dict__["_parameters"], Function.apply

Command line:
  datamodel_gen.py --list                   every program: index, name, feature, needs
  datamodel_gen.py --dump N|NAME            the text of program N (or named NAME)
  datamodel_gen.py --summary [KERNEL] [-v]  runs every program with this Python and with KERNEL
                                            (default build/minitorch-kernel, or $MT_KERNEL_BIN)
                                            and prints pass/fail counts by feature and by need;
                                            -v names the failing programs
  datamodel_gen.py --diff N|NAME [KERNEL]   runs one program both ways and shows both outputs
"""

import argparse
import dataclasses
import os
import random
import subprocess
import sys
import tempfile

SEED = 20260444

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# What a program's output may depend on. The first word of the description is what it is.
NEEDS = {
    "binop": "operator methods __add__ __sub__ __mul__ __truediv__ __floordiv__ __mod__ __pow__ "
             "__matmul__ called by + - * / // % ** @",
    "reflected": "reflected operator methods (__radd__ ...), the right operand's subclass first",
    "inplace": "in-place operator methods (__iadd__ ...) and += falling back to __add__/__radd__",
    "bitwise": "the operators & | ^ << >> and __and__ __or__ __xor__ __lshift__ __rshift__",
    "unary": "__neg__ __pos__ __abs__ called by - + abs()",
    "compare": "__eq__ __ne__ __lt__ __le__ __gt__ __ge__, reflected and NotImplemented fallbacks",
    "truth": "__bool__, then __len__, for if/while/not/and/or/bool()",
    "len": "len() calling __len__",
    "item": "__getitem__ __setitem__ __delitem__ called by x[k], x[k] = v, del x[k]",
    "iter": "__iter__/__next__ (and __getitem__'s old protocol) for for-loops and list()...",
    "contains": "__contains__ for in / not in (and in falling back to iteration)",
    "hash": "__hash__ for dict keys, and __eq__ without __hash__ making a class unhashable",
    "call": "__call__",
    "repr-str": "__repr__ and __str__",
    "format": "__format__ (f\"{x:>5}\", format(x, spec), \"{:>5}\".format(x))",
    "property": "property: getter, setter, read-only assignment error",
    "classmethod": "classmethod: cls is the class it is called on",
    "staticmethod": "staticmethod",
    "getattr-hook": "__getattr__ for missing attributes",
    "setattr-hook": "__setattr__ for every attribute assignment",
    "instance-dict": "obj.__dict__ (read, write into, hold in a variable)",
    "vars": "the builtin vars(obj)",
    "exc-subclass": "classes deriving from Exception, ValueError, RuntimeError, ... raised and "
                    "caught",
    "super": "super() in methods",
    "NotImplemented": "the builtin constant NotImplemented",
    "iter-next": "the builtins iter() and next()",
    "hash-builtin": "the builtin hash()",
    "object-setattr": "object.__setattr__(obj, name, value)",
    # not the data model, but what these programs found:
    "str-percent": "printf-style formatting of a string with an instance (`'s' % a`)",
    "matmul-assign": "the augmented assignment `@=`",
    "msg-NoneType": "messages naming None's type as CPython does: NoneType (`__str__ returned "
                    "non-string (type NoneType)`, `object of type 'NoneType' has no len()`)",
    "qualname": "a function's name in its binding errors is where it was defined (`twice()`), "
                "not the class that holds it (`staticmethod(twice)` in class Tok)",
}

NAMES = ["Vec", "Num", "Box", "Money", "Pt", "Val", "Cell", "Qty", "Tok", "Unit", "Node", "Amt"]

OPS = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod",
       "**": "pow", "@": "matmul"}
BITOPS = {"&": "and", "|": "or", "^": "xor", "<<": "lshift", ">>": "rshift"}
ALLOPS = dict(OPS, **BITOPS)


def impl(op, a, b):
    """What a class's operator method computes from two ints (@ has no meaning on ints)."""
    if op == "@":
        return f"{a} * {b} - {a}"
    return f"{a} {op} {b}"


@dataclasses.dataclass
class Program:
    index: int
    name: str
    feature: str
    group: str
    needs: tuple
    text: str


class Prog:
    """Builds one program's text: lines, the needs it declares, and labelled checks that print
    `label -> value` or `label ! TypeName: message`."""

    def __init__(self, r):
        self.r = r
        self.lines = []
        self.needs = set()
        self.used = set()

    def fresh(self):
        """A class name not yet used in this program."""
        name = self.r.choice([n for n in NAMES if n not in self.used])
        self.used.add(name)
        return name

    def need(self, *names):
        for n in names:
            assert n in NEEDS, n
            self.needs.add(n)

    def add(self, text):
        """Adds lines; text is dedented by its first line's indentation."""
        rows = text.split("\n")
        while rows and not rows[0].strip():
            rows.pop(0)
        while rows and not rows[-1].strip():
            rows.pop()
        ind = len(rows[0]) - len(rows[0].lstrip()) if rows else 0
        self.lines += [row[ind:] if row.strip() else "" for row in rows]

    def ex(self, expr, label=None):
        """Prints expr's value, or the exception it raises."""
        label = expr if label is None else label
        self.lines += ["try:",
                       f"    print({label!r}, '->', {expr})",
                       "except Exception as e:",
                       f"    print({label!r}, '!', type(e).__name__ + ':', e)"]

    def st(self, stmts, show=None, label=None):
        """Runs statements (a string, lines separated by ';;'), then prints show's value; or
        the exception raised."""
        body = [s.strip() for s in stmts.split(";;")]
        label = (" ; ".join(body) if label is None else label)
        self.lines.append("try:")
        self.lines += ["    " + s for s in body]
        self.lines.append(f"    print({label!r}, '->', {show if show else repr('ok')})")
        self.lines += ["except Exception as e:",
                       f"    print({label!r}, '!', type(e).__name__ + ':', e)"]

    def text(self):
        return "\n".join(self.lines + ["print('end')"]) + "\n"


def repr_method(C, attr="v"):
    return f"""
    def __repr__(self):
        return '{C}(' + repr(self.{attr}) + ')'"""


def value_class(C, body="", base=None, attr="v"):
    head = f"class {C}({base}):" if base else f"class {C}:"
    return f"""
{head}
    def __init__(self, {attr}):
        self.{attr} = {attr}{repr_method(C, attr)}{body}
"""


def nz(r, lo=-9, hi=9):
    return r.choice([v for v in range(lo, hi + 1) if v != 0])


# ---- families ---------------------------------------------------------------------------------
# Each takes (rng, k) and returns a Prog; k is the program's number in its family (used to cover
# every operator before drawing at random).


def fam_binop(r, k, ops=OPS, bit=False):
    p = Prog(r)
    p.need("binop", "repr-str")
    if bit:
        p.need("bitwise")
    names = list(ops)
    op1 = names[k % len(names)]
    op2 = r.choice(names) if r.random() < 0.5 else None
    C = p.fresh()
    nimpl = r.random() < 0.6
    if nimpl:
        p.need("NotImplemented")
    body = ""
    for op in dict.fromkeys([op1] + ([op2] if op2 else [])):
        fb = ("return NotImplemented" if nimpl else
              f"raise TypeError('{C} cannot {OPS.get(op, ALLOPS[op])} ' + type(other).__name__)")
        body += f"""
    def __{ALLOPS[op]}__(self, other):
        if isinstance(other, {C}):
            return {C}({impl(op, 'self.v', 'other.v')})
        if isinstance(other, int):
            return {C}({impl(op, 'self.v', 'other')})
        {fb}"""
    p.add(value_class(C, body))
    a = nz(r) if not bit else r.randint(1, 60)
    b, c = r.randint(1, 3), r.randint(1, 2)
    if op1 in ("<<", ">>") or op2 in ("<<", ">>"):
        b, c = r.randint(0, 3), r.randint(0, 2)
    p.add(f"a = {C}({a})\nb = {C}({b})")
    p.ex(f"a {op1} b")
    p.ex(f"a {op1} {c}")
    p.ex(f"(a {op1} b).v")
    p.ex(f"{c} {op1} a")
    p.ex(f"a {op1} 2.5")
    p.ex(f"a {op1} 'x'")
    p.ex(f"a.__{ALLOPS[op1]}__(b)")
    if op2:
        p.ex(f"a {op1} b {op2} {c}")
        p.ex(f"b {op2} {c} {op1} a" if r.random() < 0.5 else f"(a {op2} b) {op1} b")
    if r.random() < 0.4:  # a method that returns a plain value, not an instance
        D = p.fresh()
        p.add(f"""
class {D}:
    def __init__(self, v):
        self.v = v
    def __{ALLOPS[op1]}__(self, other):
        return {impl(op1, 'self.v', 'other')}
""")
        p.ex(f"{D}({a}) {op1} {c}")
        p.ex(f"{D}({a}) {op1} {D}(1)")
    return p


def fam_reflected(r, k, ops=OPS, bit=False):
    p = Prog(r)
    p.need("binop", "reflected", "repr-str")
    if bit:
        p.need("bitwise")
    names = list(ops)
    op = names[k % len(names)]
    C = p.fresh()
    D = p.fresh()
    m = ALLOPS[op]
    p.need("NotImplemented")
    p.add(value_class(C, f"""
    def __{m}__(self, other):
        if isinstance(other, {C}):
            return {C}({impl(op, 'self.v', 'other.v')})
        if isinstance(other, int):
            return {C}({impl(op, 'self.v', 'other')})
        return NotImplemented
    def __r{m}__(self, other):
        if isinstance(other, int):
            return {C}({impl(op, 'other', 'self.v')})
        if isinstance(other, {D}):
            return {C}({impl(op, 'other.w', 'self.v')})
        return NotImplemented"""))
    a, c = (r.randint(1, 3), r.randint(1, 40)) if bit else (r.randint(1, 3), nz(r))
    if op in ("<<", ">>"):
        a = r.randint(0, 3)
    # D knows nothing of C: D op C goes to C's reflected method
    p.add(f"""
class {D}:
    def __init__(self, w):
        self.w = w
    def __{m}__(self, other):
        if isinstance(other, {D}):
            return {D}({impl(op, 'self.w', 'other.w')})
        return NotImplemented
""")
    p.add(f"a = {C}({a})")
    cs = f"({c})" if c < 0 else str(c)  # -1 ** a is -(1 ** a)
    p.ex(f"{cs} {op} a")
    p.ex(f"a {op} {a}")
    p.ex(f"{D}({c}) {op} a")
    p.ex(f"({D}({c}) {op} {D}({a})).w")
    p.ex(f"2.5 {op} a")
    p.ex(f"'s' {op} a")
    p.ex(f"a {op} {D}(1)")
    p.ex(f"a.__r{m}__({c})")
    if r.random() < 0.6:  # the right operand's subclass, overriding __rOP__, goes first
        S = p.fresh()
        p.need("super")
        p.add(f"""
class {S}({C}):
    def __r{m}__(self, other):
        print('{S}.__r{m}__ called with', other)
        return super().__r{m}__(other)
""")
        p.ex(f"{C}({c}) {op} {S}({a})")
        p.ex(f"{S}({a}) {op} {C}({c})")
        p.ex(f"{cs} {op} {S}({a})")
    if op == "+" and r.random() < 0.7:
        p.ex(f"sum([a, {C}(2), {C}({c})])")
        p.ex(f"sum([a, a], {C}(10))")
    return p


def fam_inplace(r, k, ops=OPS, bit=False):
    p = Prog(r)
    p.need("binop", "inplace", "repr-str")
    if bit:
        p.need("bitwise")
    names = list(ops)
    op = names[k % len(names)]
    m = ALLOPS[op]
    C = p.fresh()
    variants = ["mutate", "no-iop", "notimpl", "forgets-return"]
    variant = variants[(k // len(names) + r.randint(0, 3)) % 4]
    body = f"""
    def __{m}__(self, other):
        if isinstance(other, int):
            return {C}({impl(op, 'self.v', 'other')})
        return NotImplemented
    def __r{m}__(self, other):
        if isinstance(other, int):
            return {C}({impl(op, 'other', 'self.v')})
        return NotImplemented"""
    p.need("NotImplemented", "reflected")
    if variant == "mutate":
        body += f"""
    def __i{m}__(self, other):
        if not isinstance(other, (int, float)):
            return NotImplemented
        self.v = {impl(op, 'self.v', 'other')}
        return self"""
    elif variant == "notimpl":
        body += f"""
    def __i{m}__(self, other):
        if other == 0 or not isinstance(other, (int, float)):
            return NotImplemented
        self.v = {impl(op, 'self.v', 'other')}
        return self"""
    elif variant == "forgets-return":
        body += f"""
    def __i{m}__(self, other):
        self.v = {impl(op, 'self.v', 'other')}"""
    p.add(value_class(C, body))
    c = r.randint(1, 3)
    a = r.randint(2, 9)
    p.add(f"a = {C}({a})\nb = a")
    p.st(f"a {op}= {c}", "(a, b, a is b)")
    p.st(f"a = {C}({a});; a {op}= {c};; a {op}= {c}", "a")
    if variant == "notimpl" and op not in ("/", "//", "%"):
        p.st(f"a = {C}({a});; b = a;; a {op}= 0", "(a, b, a is b)")
    p.st(f"x = {c};; x {op}= {C}({a})", "x")
    p.st(f"a = {C}({a});; a {op}= 'y'", "a")
    p.st(f"a = {C}({a});; a {op}= 2.5", "a")
    p.add(f"""
class Holder:
    def __init__(self):
        self.acc = {C}({a})
h = Holder()
xs = [{C}({a}), {C}(1)]
d = {{'k': {C}({a})}}
""")
    p.st(f"h.acc {op}= {c}", "h.acc")
    p.st(f"xs[0] {op}= {c};; xs[-1] {op}= 1", "xs")
    p.st(f"d['k'] {op}= {c}", "d")
    return p


def fam_unary(r, k):
    p = Prog(r)
    p.need("unary", "repr-str")
    C = p.fresh()
    have = [u for u in ("neg", "pos", "abs") if r.random() < 0.7] or ["neg"]
    if k < 3:
        have = [["neg", "pos", "abs"][k]]
    body = ""
    if "neg" in have:
        body += f"""
    def __neg__(self):
        return {C}(-self.v)"""
    if "pos" in have:
        body += f"""
    def __pos__(self):
        return {C}(self.v + {r.randint(0, 2)})"""
    if "abs" in have:
        body += f"""
    def __abs__(self):
        return {r.choice(['abs(self.v)', f'{C}(abs(self.v))', 'self.v * self.v'])}"""
    p.add(value_class(C, body))
    v = nz(r)
    p.add(f"a = {C}({v})")
    for e in ["-a", "+a", "abs(a)", "-(-a)", "abs(-a)", "-a.v", "+(-a)"]:
        p.ex(e)
    if r.random() < 0.6:
        S = p.fresh()
        p.need("super")
        p.add(f"""
class {S}({C}):
    def __neg__(self):
        r = super().__neg__()
        return {S}(r.v * 10)
""")
        p.ex(f"-{S}({v})")
        p.ex(f"abs({S}({v}))")
        p.ex(f"type(-{S}(1)).__name__")
    return p


CMPS = ["==", "!=", "<", "<=", ">", ">="]
CMP_METHOD = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def fam_compare(r, k):
    p = Prog(r)
    p.need("compare", "repr-str")
    C = p.fresh()
    pattern = ["eq", "eq-lt", "all", "lt-le", "two-classes", "odd-results"][k % 6]
    methods = {"eq": ["eq"], "eq-lt": ["eq", "lt"], "all": ["eq", "ne", "lt", "le", "gt", "ge"],
               "lt-le": ["lt", "le"], "two-classes": ["eq", "lt"],
               "odd-results": ["eq", "lt"]}[pattern]
    nimpl = pattern != "odd-results" and r.random() < 0.8
    if nimpl:
        p.need("NotImplemented")
    sym = {v: s for s, v in CMP_METHOD.items()}
    body = ""
    for m in methods:
        if pattern == "odd-results":
            res = {"eq": "'same' if self.v == other.v else ''", "lt": "self.v - other.v"}[m]
            body += f"""
    def __{m}__(self, other):
        return {res}"""
            continue
        fb = "return NotImplemented" if nimpl else "return False"
        body += f"""
    def __{m}__(self, other):
        if isinstance(other, {C}):
            return self.v {sym[m]} other.v
        if isinstance(other, int):
            return self.v {sym[m]} other
        {fb}"""
    p.add(value_class(C, body))
    vals = [r.randint(0, 5) for _ in range(4)]
    p.add(f"a, b, c = {C}({vals[0]}), {C}({vals[1]}), {C}({vals[0]})")
    pool = []
    for s in CMPS:
        pool += [f"a {s} b", f"a {s} c", f"a {s} {vals[2]}", f"{vals[3]} {s} a", f"a {s} 'z'"]
    picked = r.sample(pool, 10)
    for e in picked:
        p.ex(e)
    p.ex("a == a")
    p.ex(f"a != {C}({vals[0]})")
    p.ex("a < b < c" if "lt" in methods else "a == b == c")
    p.ex("a in [b, c]")
    p.ex("[a, b] == [c, b]")
    if pattern == "odd-results":
        p.ex("'yes' if a == c else 'no'")
        p.ex("not (a < b)")
    if "lt" in methods and pattern != "odd-results":
        xs = ", ".join(f"{C}({r.randint(0, 9)})" for _ in range(5))
        p.ex(f"sorted([{xs}])")
        p.ex(f"sorted([{xs}], reverse=True)")
        p.ex(f"max([{xs}])")
        p.ex(f"min([{xs}])")
    if pattern == "two-classes":
        D = p.fresh()
        p.need("NotImplemented")
        p.add(f"""
class {D}:
    def __init__(self, w):
        self.w = w
    def __eq__(self, other):
        if isinstance(other, {C}):
            print('{D}.__eq__')
            return self.w == other.v
        return NotImplemented
    def __gt__(self, other):
        if isinstance(other, {C}):
            print('{D}.__gt__')
            return self.w > other.v
        return NotImplemented
""")
        for e in [f"a == {D}({vals[0]})", f"{D}({vals[0]}) == a", f"a != {D}(99)",
                  f"a < {D}({vals[1]})", f"{D}(3) > a", f"a > {D}(1)", f"{D}(1) < a",
                  f"{D}(1) == {D}(1)", f"{D}(1) <= a"]:
            p.ex(e)
    if r.random() < 0.5:  # a subclass overriding the reflected comparison goes first
        S = p.fresh()
        p.add(f"""
class {S}({C}):
    def __gt__(self, other):
        print('{S}.__gt__')
        return True
    def __eq__(self, other):
        print('{S}.__eq__')
        return True
""")
        p.ex(f"a < {S}(0)")
        p.ex(f"a == {S}(77)")
        p.ex(f"{S}(0) < a")
    return p


def fam_compare_order(r, k):
    """Which operand's method a comparison asks first: a subclass's reflected method before the
    left operand's, whether it overrides it or only inherits it (CPython's do_richcompare), and
    the order of == in a container's search (the container's item on the left)."""
    p = Prog(r)
    p.need("compare", "repr-str", "NotImplemented")
    B, S, T, O = p.fresh(), p.fresh(), p.fresh(), p.fresh()
    methods = r.sample(["eq", "ne", "lt", "le", "gt", "ge"], r.randint(2, 6))
    body = ""
    for m in methods:
        res = r.choice(["NotImplemented", f"'{m}:' + str(self.v)", "self.v < other.v",
                        "NotImplemented if isinstance(other, int) else self.v == other.v"])
        body += f"""
    def __{m}__(self, other):
        print('{m} of', type(self).__name__, self.v)
        return {res}"""
    p.add(value_class(B, body))
    over = r.choice([m for m in methods] + [None])  # the subclass overrides one, or none
    sbody = "    pass" if over is None else f"""    def __{over}__(self, other):
        print('{over} of {S}', self.v)
        return NotImplemented"""
    p.add(f"""
class {S}({B}):
{sbody}
""")
    p.add(f"""
class {T}({S}):
    pass
""")
    p.add(f"""
class {O}:
    def __init__(self, v):
        self.v = v{repr_method(O)}
    def __eq__(self, other):
        print('eq of {O}', self.v)
        return NotImplemented
""")
    vals = [r.randint(0, 3) for _ in range(6)]
    objs = [f"{B}({vals[0]})", f"{S}({vals[1]})", f"{T}({vals[2]})", f"{O}({vals[3]})",
            str(vals[4])]
    for _ in range(12):
        x, y = r.sample(objs, 2)
        p.ex(f"{x} {r.choice(CMPS)} {y}")
    for _ in range(4):
        x = r.choice(objs)
        p.ex(f"{x} {r.choice(CMPS)} {x}")
    items = ", ".join(r.sample(objs, 3))
    p.add(f"xs = [{items}]")
    for x in r.sample(objs, 3):
        p.ex(f"{x} in xs")
        p.ex(f"{x} in tuple(xs)")
        p.ex(f"xs.count({x})")
        p.ex(f"xs.index({x})")
    return p


def fam_truth(r, k):
    p = Prog(r)
    p.need("truth", "repr-str")
    C = p.fresh()
    variant = ["bool", "len", "both", "bad-bool", "bad-len", "neither"][k % 6]
    body = ""
    if variant in ("bool", "both"):
        body += """
    def __bool__(self):
        return self.v > 0"""
    if variant in ("len", "both"):
        p.need("len")
        body += """
    def __len__(self):
        return max(self.v, 0) + 0"""
    if variant == "bad-bool":
        body += """
    def __bool__(self):
        return self.v > 0 if self.v != 0 else 0"""
    if variant == "bad-len":
        p.need("len")
        body += f"""
    def __len__(self):
        return {r.choice(['self.v', "'three' if self.v == 0 else self.v",
                          'self.v * 1.0 if self.v == 0 else self.v'])}"""
    p.add(value_class(C, body))
    if variant == "neither":  # the baseline: an instance is true, len() is a TypeError
        p.needs -= {"truth"}
    vals = [r.randint(-2, 3) for _ in range(3)]
    p.add(f"xs = [{C}({vals[0]}), {C}({vals[1]}), {C}(0), {C}({vals[2]})]")
    p.ex("[bool(x) for x in xs]")
    p.ex("[not x for x in xs]")
    p.ex("[x for x in xs if x]")
    p.ex("xs[0] and xs[1]")
    p.ex("xs[2] or xs[3]")
    p.ex("xs[1] or 'fallback'")
    p.ex("'yes' if xs[0] else 'no'")
    p.ex("len(xs[0])")
    p.ex("any(xs)")
    p.ex("all(xs)")
    p.add("""
n = 0
x = xs[3]
try:
    while x and n < 5:
        n = n + 1
        x = type(x)(x.v - 1)
    print('loop ->', n, x)
except Exception as e:
    print('loop !', type(e).__name__ + ':', e)
""")
    if variant == "both":
        p.add(f"""
class Only{C}({C}):
    def __bool__(self):
        return True
""")
        p.ex(f"bool(Only{C}(0)), len(Only{C}(0))")
    return p


def fam_item(r, k):
    p = Prog(r)
    p.need("item", "repr-str")
    variant = ["grid", "seq", "readonly", "bare"][k % 4]
    C = p.fresh()
    if variant == "grid":
        p.add(f"""
class {C}:
    def __init__(self, n):
        self.n = n
        self.cells = {{}}
    def __getitem__(self, key):
        i, j = key
        if not (0 <= i < self.n and 0 <= j < self.n):
            raise IndexError('cell ' + repr(key) + ' outside ' + repr(self.n))
        return self.cells.get(key, 0)
    def __setitem__(self, key, value):
        self[key]
        self.cells[key] = value
    def __delitem__(self, key):
        del self.cells[key]
    def __repr__(self):
        return '{C}(' + repr(sorted(self.cells.items())) + ')'
""")
        n = r.randint(2, 4)
        p.add(f"g = {C}({n})")
        i, j = r.randint(0, n - 1), r.randint(0, n - 1)
        p.st(f"g[{i}, {j}] = {r.randint(1, 9)};; g[0, 0] = 'a'", "g")
        p.ex(f"g[{i}, {j}]")
        p.ex(f"g[({i}, {j})]")
        p.ex("g[1, 1]")
        p.ex(f"g[{n}, 0]")
        p.ex("g[-1, 0]")
        p.st(f"g[{i}, {j}] += 5", f"g[{i}, {j}]")
        p.st(f"g[{n}, {n}] = 1", "g")
        p.st(f"del g[{i}, {j}]", "g")
        p.st(f"del g[{i}, {j}]", "g")
        p.ex("g[0]")
        p.ex("g[1, 2, 3]" if n > 3 else "g[0, 1, 2]")
    elif variant == "seq":
        items = [r.randint(0, 9) for _ in range(r.randint(3, 5))]
        p.add(f"""
class {C}:
    def __init__(self, items):
        self.items = list(items)
    def __getitem__(self, i):
        if isinstance(i, tuple):
            return [self.items[j] for j in i]
        return self.items[i]
    def __setitem__(self, i, v):
        self.items[i] = v
    def __delitem__(self, i):
        del self.items[i]
    def __len__(self):
        return len(self.items)
    def __repr__(self):
        return '{C}(' + repr(self.items) + ')'
""")
        p.need("len")
        p.add(f"s = {C}({items})")
        p.ex("s[0]")
        p.ex("s[-1]")
        p.ex("s[0, 2]")
        p.ex("s[9]")
        p.ex("s['a']")
        p.st(f"s[1] = {r.randint(10, 20)};; s[-1] = s[0]", "s")
        p.st("s[1] *= 3", "s")
        p.st("del s[0]", "(s, len(s))")
        p.st("del s[-1]", "s")
        p.st("del s[7]", "s")
        p.need("iter")  # __getitem__ alone makes it iterable (the old protocol)
        p.ex("[x for x in s]")
        p.ex("list(s)")
    elif variant == "readonly":
        S = p.fresh()
        p.need("super")
        p.add(f"""
class {C}:
    def __init__(self):
        self.data = {{'a': 1, 'b': 2}}
    def __getitem__(self, k):
        return self.data[k]

class {S}({C}):
    def __getitem__(self, k):
        if isinstance(k, int):
            return k * 100
        return super().__getitem__(k)
    def __setitem__(self, k, v):
        self.data[k] = v
""")
        p.add(f"m = {C}()\nn = {S}()")
        p.ex("m['a']")
        p.ex("m['zz']")
        p.ex("n[3]")
        p.ex("n['b']")
        p.st("m['a'] = 5", "m['a']")
        p.st("n['a'] = 5", "n['a']")
        p.st("del m['a']", "m['a']")
        p.st("del n['a']", "n['a']")
        p.st("n['c'] = n['a'] + 1", "n.data")
    else:
        p.add(f"""
class {C}:
    def __init__(self):
        self.v = 1
""")
        p.add(f"b = {C}()")
        p.ex("b[0]")
        p.ex("b[0, 1]")
        p.st("b[0] = 1")
        p.st("del b[0]")
        p.add(f"""
class Late{C}({C}):
    pass
def get(self, k):
    return (k, self.v)
Late{C}.__getitem__ = get
""")
        p.ex(f"Late{C}()[4]")
        p.ex(f"Late{C}()[4, 5]")
    return p


def fam_iter(r, k):
    p = Prog(r)
    p.need("iter", "repr-str")
    variant = ["self-next", "iter-list", "reusable", "bad"][k % 4]
    C = p.fresh()
    n = r.randint(2, 5)
    if variant == "self-next":
        p.add(f"""
class {C}:
    def __init__(self, n):
        self.n = n
        self.i = 0
    def __iter__(self):
        return self
    def __next__(self):
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.i * {r.randint(1, 3)}
""")
        p.ex(f"list({C}({n}))")
        p.ex(f"[x + 1 for x in {C}({n})]")
        p.ex(f"sum({C}({n}))")
        p.ex(f"sorted({C}({n}), reverse=True)")
        p.ex(f"max({C}({n}))")
        p.ex(f"list(enumerate({C}(2)))")
        p.ex(f"list(zip({C}(3), 'abc'))")
        p.ex(f"tuple({C}({n}))")
        p.add(f"""
it = {C}({n})
print('first', list(it))
print('again', list(it))
total = 0
for x in {C}({n}):
    if x > 4:
        break
    total += x
print('loop', total)
""")
        p.st(f"a, b = {C}(2)", "(a, b)")
        p.st(f"a, b = {C}(3)", "(a, b)")
        p.need("iter-next")
        p.ex(f"iter({C}(1)).n")
        p.add(f"""
it = {C}(2)
print(next(it), next(it))
try:
    next(it)
except StopIteration as e:
    print('StopIteration', repr(str(e)))
print(next(it, 'done'))
""")
    elif variant == "iter-list":
        p.need("iter-next")
        xs = [r.randint(0, 9) for _ in range(n)]
        p.add(f"""
class {C}:
    def __init__(self, xs):
        self.xs = xs
    def __iter__(self):
        return iter(self.xs)
""")
        p.add(f"b = {C}({xs})")
        p.ex("list(b)")
        p.ex("list(b)")
        p.ex("[x * 2 for x in b if x % 2 == 0]")
        p.ex("sum(b)")
        p.ex("min(b)")
        p.ex("dict(zip(b, b))")
        p.ex("list(map(str, b))")
        p.ex("sorted(b)")
        p.ex("any(x > 5 for x in b)")
        p.add("""
out = []
for i, x in enumerate(b):
    out.append((i, x))
print(out)
""")
        p.ex(f"next(iter(b))")
        p.ex(f"{n - 1} in b")
        p.ex(f"{C}([['a', 1], ['b', 2]]) and dict({C}([('a', 1), ('b', 2)]))")
    elif variant == "reusable":
        # __iter__ returns a new iterator object each time: two loops see all items
        D = p.fresh()
        p.add(f"""
class {D}:
    def __init__(self, owner):
        self.owner = owner
        self.i = 0
    def __iter__(self):
        return self
    def __next__(self):
        if self.i >= len(self.owner.xs):
            raise StopIteration
        self.i += 1
        return self.owner.xs[-self.i]

class {C}:
    def __init__(self, xs):
        self.xs = xs
    def __iter__(self):
        return {D}(self)
""")
        xs = [r.randint(0, 9) for _ in range(n)]
        p.add(f"b = {C}({xs})")
        p.ex("list(b)")
        p.ex("list(b)")
        p.ex("[(x, y) for x in b for y in b if x < y]")
        p.ex("list(zip(b, b))")
        p.ex("str(list(b)) + str(sorted(b))")
    else:
        p.add(f"""
class {C}:
    def __init__(self):
        self.v = 1
class Bad{C}:
    def __iter__(self):
        return [1, 2]
class Next{C}:
    def __iter__(self):
        return self
    def __next__(self):
        raise ValueError('next failed')
""")
        p.ex(f"list({C}())")
        p.ex(f"[x for x in {C}()]")
        p.st(f"for x in {C}():\n        pass", label=f"for x in {C}(): pass")
        p.ex(f"list(Bad{C}())")
        p.ex(f"list(Next{C}())")
        p.st(f"a, b = {C}()", "a")
        p.ex(f"sum({C}())")
        p.need("iter-next")
        p.ex(f"iter({C}())")
        p.ex(f"next({C}())")
        p.ex(f"next(Next{C}())")
    return p


def fam_contains(r, k):
    p = Prog(r)
    p.need("contains", "repr-str")
    variant = ["contains", "iter-fallback", "getitem-fallback", "none", "odd-result"][k % 5]
    C = p.fresh()
    xs = [r.randint(0, 9) for _ in range(4)]
    if variant == "contains":
        p.add(f"""
class {C}:
    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi
    def __contains__(self, x):
        print('contains', x)
        return self.lo <= x < self.hi
""")
        p.add(f"rg = {C}({min(xs)}, {max(xs)})")
        for x in xs + [100]:
            p.ex(f"{x} in rg")
        p.ex(f"{xs[0]} not in rg")
        p.ex("'a' in rg")
        p.ex(f"[x for x in {xs} if x in rg]")
    elif variant == "iter-fallback":
        p.need("iter", "iter-next")
        p.add(f"""
class {C}:
    def __init__(self, xs):
        self.xs = xs
    def __iter__(self):
        print('iter')
        return iter(self.xs)
""")
        p.add(f"b = {C}({xs})")
        p.ex(f"{xs[1]} in b")
        p.ex("42 in b")
        p.ex("42 not in b")
        p.ex("'a' in b")
    elif variant == "getitem-fallback":
        p.need("iter", "item")
        p.add(f"""
class {C}:
    def __init__(self, xs):
        self.xs = xs
    def __getitem__(self, i):
        print('getitem', i)
        return self.xs[i]
""")
        p.add(f"b = {C}({xs})")
        p.ex(f"{xs[1]} in b")
        p.ex("42 in b")
    elif variant == "none":  # the baseline: in is a TypeError
        p.needs -= {"contains"}
        p.add(f"""
class {C}:
    pass
""")
        p.ex(f"1 in {C}()")
        p.ex(f"1 not in {C}()")
        p.ex(f"{C} in [{C}]")
    else:
        p.add(f"""
class {C}:
    def __contains__(self, x):
        return {r.choice(['x', "'' if x else 'yes'", 'x * 2', '[x]'])}
""")
        for x in [0, 1, 2, "''"]:
            p.ex(f"{x} in {C}()")
            p.ex(f"{x} not in {C}()")
    return p


def fam_hash(r, k):
    p = Prog(r)
    p.need("hash", "compare", "repr-str")
    variant = ["eq-hash", "eq-no-hash", "hash-none", "identity", "sub-eq"][k % 5]
    C = p.fresh()
    a, b = r.randint(0, 9), r.randint(0, 9)
    mult = r.choice([7, 31, 101])
    if variant in ("eq-hash", "sub-eq"):
        p.need("NotImplemented", "hash-builtin")
        p.add(f"""
class {C}:
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def __eq__(self, other):
        if not isinstance(other, {C}):
            return NotImplemented
        return self.x == other.x and self.y == other.y
    def __hash__(self):
        return self.x * {mult} + self.y
    def __repr__(self):
        return '{C}(' + repr(self.x) + ', ' + repr(self.y) + ')'
""")
        p.add(f"""
d = {{}}
d[{C}({a}, {b})] = 'first'
d[{C}({b}, {a})] = 'second'
d[{C}({a}, {b})] = 'again'
print(d)
print(len(d), d[{C}({a}, {b})], {C}({b}, {a}) in d, {C}({a + 1}, {b}) in d)
print(hash({C}({a}, {b})), hash({C}(0, 0)))
print(d.get({C}(99, 0), 'missing'))
counts = {{}}
for p in [{C}(1, 2), {C}(1, 2), {C}(2, 1), {C}(1, 2)]:
    counts[p] = counts.get(p, 0) + 1
print(counts)
""")
        # equal hashes, unequal objects: both kept
        p.add(f"""
e = {{{C}(0, {mult}): 'a', {C}(1, 0): 'b'}}
print(len(e), e[{C}(1, 0)], e[{C}(0, {mult})])
""")
        if variant == "sub-eq":
            S = p.fresh()
            p.need("super")
            p.add(f"""
class {S}({C}):
    def __eq__(self, other):
        return super().__eq__(other)
class Keep{S}({C}):
    def __eq__(self, other):
        return super().__eq__(other)
    __hash__ = {C}.__hash__
""")
            p.ex(f"hash({S}(1, 2))")
            p.st(f"d[{S}(1, 2)] = 1", "len(d)")
            p.ex(f"hash(Keep{S}(1, 2))")
            p.ex(f"{{Keep{S}(1, 2): 'k'}}[{C}(1, 2)]")
    elif variant in ("eq-no-hash", "hash-none"):
        p.need("hash-builtin")
        extra = "\n    __hash__ = None" if variant == "hash-none" else ""
        eq = ""
        if variant == "eq-no-hash":
            eq = """
    def __eq__(self, other):
        return isinstance(other, type(self)) and self.x == other.x"""
        p.add(f"""
class {C}:
    def __init__(self, x):
        self.x = x{eq}{extra}
""")
        p.ex(f"hash({C}(1))")
        p.st(f"d = {{{C}(1): 2}}", "d")
        p.st(f"d = {{}};; d[{C}(1)] = 2", "d")
        p.ex(f"{C}(1) == {C}(1)")
        p.ex(f"{C}(1) in [{C}(1)]")
        p.ex(f"{C}.__hash__ is None")
    else:
        p.add(f"""
class {C}:
    def __init__(self, x):
        self.x = x
    def __repr__(self):
        return '{C}(' + repr(self.x) + ')'
""")
        p.add(f"""
k = {C}({a})
d = {{k: 'k'}}
print(d[k], {C}({a}) in d, k in d, len(d))
d[{C}({a})] = 'other'
print(len(d), sorted(d.values()))
""")
        p.need("hash-builtin")
        p.ex(f"hash(k) == hash(k)")
    return p


def fam_call(r, k):
    p = Prog(r)
    p.need("call", "repr-str")
    variant = ["counter", "args", "key", "not-callable", "inherited"][k % 5]
    C = p.fresh()
    m = r.randint(2, 5)
    if variant == "counter":
        p.add(f"""
class {C}:
    def __init__(self, step):
        self.step = step
        self.n = 0
    def __call__(self):
        self.n += self.step
        return self.n
""")
        p.add(f"c = {C}({m})\nprint(c(), c(), c.n)\nf = c\nprint(f(), c.n)")
        p.ex("c(1)")
    elif variant == "args":
        p.add(f"""
class {C}:
    def __call__(self, a, b={m}, *rest, scale=1, **kw):
        return (a + b) * scale, rest, kw
""")
        p.add(f"c = {C}()")
        for e in ["c(1)", "c(1, 2)", "c(1, 2, 3, 4)", "c(1, scale=3)", "c(1, z=9)",
                  "c(*[1, 2, 3])", "c(**{'a': 1, 'b': 1})", "c()", f"{C}.__call__(c, 5)"]:
            p.ex(e)
    elif variant == "key":
        p.add(f"""
class {C}:
    def __init__(self, m):
        self.m = m
    def __call__(self, x):
        return x % self.m
""")
        xs = [r.randint(0, 20) for _ in range(6)]
        p.add(f"f = {C}({m})")
        p.ex(f"sorted({xs}, key=f)")
        p.ex(f"list(map(f, {xs}))")
        p.ex(f"list(filter(f, {xs}))")
        p.ex(f"max({xs}, key=f)")
        p.ex(f"[{C}(3), {C}(4)][1](10)")
        p.ex(f"{C}({m})({m + 1})")
    elif variant == "not-callable":
        p.add(f"""
class {C}:
    def __init__(self):
        self.v = 1
""")
        p.ex(f"{C}()()")
        p.ex(f"{C}()(1, 2)")
        p.ex(f"list(map({C}(), [1]))")
        p.ex(f"[f(1) for f in [abs, {C}()]]")
    else:
        S = p.fresh()
        p.need("super")
        p.add(f"""
class {C}:
    def __call__(self, x):
        return self.forward(x)
    def forward(self, x):
        return x + 1
class {S}({C}):
    def forward(self, x):
        return x * {m}
class Twice({S}):
    def __call__(self, x):
        return super().__call__(super().__call__(x))
""")
        p.ex(f"{C}()(3)")
        p.ex(f"{S}()(3)")
        p.ex("Twice()(3)")
    return p


def fam_text(r, k):
    p = Prog(r)
    p.need("repr-str")
    variant = ["repr", "str", "both", "format", "format-delegate", "no-format", "bad"][k % 7]
    C = p.fresh()
    v = r.choice([r.randint(-99, 99), round(r.uniform(-9, 9), 2), "'ab'"])
    if variant in ("repr", "str", "both"):
        body = ""
        if variant in ("repr", "both"):
            body += f"""
    def __repr__(self):
        return '{C}(' + repr(self.v) + ')'"""
        if variant in ("str", "both"):
            body += f"""
    def __str__(self):
        return '<' + str(self.v) + '>'"""
        p.add(f"""
class {C}:
    def __init__(self, v):
        self.v = v{body}
""")
        p.add(f"x = {C}({v})\nprint(x)\nprint(str(x), 'and', x)")
        p.ex("str(x)")
        p.ex("f'{x}|{x!s}'")
        p.ex("'{}'.format(x)")
        p.ex("format(x)")
        p.ex("f'{x:}'")
        if variant != "str":
            p.ex("repr(x)")
            p.ex("[x, (x,), {'k': x}]")
            p.ex("f'{x!r}'")
            p.ex("'{!r}'.format(x)")
    elif variant in ("format", "format-delegate"):
        p.need("format")
        if variant == "format":
            body = f"""
    def __format__(self, spec):
        if spec == '':
            return '{C}:' + str(self.v)
        return '[' + spec + ']' + str(self.v)"""
        else:
            body = """
    def __format__(self, spec):
        return format(self.v, spec) + '!'"""
        p.add(f"""
class {C}:
    def __init__(self, v):
        self.v = v
    def __str__(self):
        return 's' + str(self.v)
    def __repr__(self):
        return 'r' + str(self.v){body}
""")
        p.add(f"x = {C}({v})")
        specs = [">5", "<6", "^7"] + (["+d", "05d", "x"] if isinstance(v, int) else
                                     [".1f", "+.3f", "e"] if isinstance(v, float) else [".1", "s"])
        w = r.randint(3, 9)
        for s in specs:
            p.ex(f"f'{{x:{s}}}'")
        p.ex("f'{x}'")
        p.ex("f'{x!s:>8}'")
        p.ex("f'{x!r:>8}'")
        p.ex(f"f'{{x:>{{{w}}}}}'")
        p.ex(f"format(x, '>{w}')")
        p.ex("format(x)")
        p.ex("'{:^9}|{}'.format(x, x)")
        p.ex("str(x), repr(x)")
    elif variant == "no-format":  # object.__format__: an empty spec only
        p.add(f"""
class {C}:
    def __init__(self, v):
        self.v = v
    def __str__(self):
        return 'S' + str(self.v)
""")
        p.add(f"x = {C}({v})")
        p.ex("f'{x}'")
        p.ex("f'{x:>5}'")
        p.ex("format(x, '')")
        p.ex("format(x, 'd')")
        p.ex("'{:<4}'.format(x)")
        p.ex("f'{x!s:>5}'")
    else:
        ret = r.choice(["self.v", "None", "[self.v]"])
        if ret == "None":
            p.need("msg-NoneType")
        p.add(f"""
class {C}:
    def __init__(self, v):
        self.v = v
    def __str__(self):
        return {ret}
    def __repr__(self):
        return {ret}
""")
        p.add(f"x = {C}({r.randint(1, 9)})")
        p.ex("str(x)")
        p.ex("repr(x)")
        p.ex("f'{x}'")
        p.ex("[x]")
        p.add("""
try:
    print('before', x)
except TypeError as e:
    print('print !', e)
""")
    if r.random() < 0.4:  # inherited text: the base's __repr__ names the subclass
        S = p.fresh()
        p.need("super")
        p.add(f"""
class Base{S}:
    def __repr__(self):
        return type(self).__name__ + '(' + self.describe() + ')'
    def describe(self):
        return 'base'
class {S}(Base{S}):
    def describe(self):
        return 'sub'
class Wrap{S}({S}):
    def __repr__(self):
        return '~' + super().__repr__()
""")
        p.ex(f"[Base{S}(), {S}(), Wrap{S}()]")
        p.ex(f"str(Wrap{S}())")
    return p


def fam_property(r, k):
    p = Prog(r)
    p.need("property", "repr-str")
    variant = ["get-set", "read-only", "property-call", "inherited", "validate"][k % 5]
    C = p.fresh()
    w, h = r.randint(1, 9), r.randint(1, 9)
    if variant == "get-set":
        p.add(f"""
class {C}:
    def __init__(self, w):
        self._w = 0
        self.w = w
    @property
    def w(self):
        print('get w')
        return self._w
    @w.setter
    def w(self, value):
        print('set w', value)
        self._w = value * 2
""")
        p.add(f"x = {C}({w})")
        p.ex("x.w")
        p.st(f"x.w = {h}", "(x.w, x._w)")
        p.st("x.w += 1", "x._w")
        p.ex("getattr(x, 'w')")
        p.st("setattr(x, 'w', 5)", "x._w")
        p.ex(f"isinstance({C}.w, property)")
    elif variant == "read-only":
        p.add(f"""
class {C}:
    def __init__(self, w, h):
        self.w = w
        self.h = h
    @property
    def area(self):
        return self.w * self.h
""")
        p.add(f"x = {C}({w}, {h})")
        p.ex("x.area")
        p.st("x.w = x.w + 1", "x.area")
        p.st("x.area = 3", "x.area")
        p.st("x.area += 1", "x.area")
        p.st("setattr(x, 'area', 1)", "x.area")
        p.ex("hasattr(x, 'area')")
        p.ex("x.area - 1")
    elif variant == "property-call":
        p.add(f"""
class {C}:
    def __init__(self, t):
        self._t = t
    def get_t(self):
        return self._t
    def set_t(self, v):
        if v < 0:
            raise ValueError('negative: ' + str(v))
        self._t = v
    t = property(get_t, set_t)
    half = property(lambda self: self._t / 2)
""")
        p.add(f"x = {C}({w})")
        p.ex("(x.t, x.half)")
        p.st(f"x.t = {h}", "(x.t, x.half)")
        p.st("x.t = -1", "x.t")
        p.st("x.half = 1", "x.half")
    elif variant == "inherited":
        S = p.fresh()
        p.need("super")
        p.add(f"""
class {C}:
    def __init__(self, v):
        self._v = v
    @property
    def v(self):
        return self._v
    @property
    def kind(self):
        return 'base'
class {S}({C}):
    @property
    def kind(self):
        return 'sub of ' + super().kind
    @property
    def v(self):
        return self._v * 10
    @v.setter
    def v(self, x):
        self._v = x
""")
        p.add(f"a = {C}({w})\nb = {S}({w})")
        p.ex("(a.v, a.kind, b.v, b.kind)")
        p.st(f"b.v = {h}", "b.v")
        p.st(f"a.v = {h}", "a.v")
    else:
        p.need("exc-subclass")
        p.add(f"""
class BadValue(ValueError):
    pass
class {C}:
    def __init__(self, lo, hi):
        self._lo = lo
        self._hi = hi
    @property
    def lo(self):
        return self._lo
    @lo.setter
    def lo(self, v):
        if v > self._hi:
            raise BadValue('lo ' + str(v) + ' > hi ' + str(self._hi))
        self._lo = v
    @property
    def width(self):
        return self._hi - self._lo
""")
        lo = min(w, h)
        hi = max(w, h) + 1
        p.add(f"x = {C}({lo}, {hi})")
        p.ex("(x.lo, x.width)")
        p.st(f"x.lo = {hi + 1}", "x.lo")
        p.st(f"x.lo = {hi - 1}", "(x.lo, x.width)")
        p.st("x.width = 0", "x.width")
        p.add("""
try:
    x.lo = 1000
except ValueError as e:
    print('caught as ValueError:', type(e).__name__, e)
""")
    return p


def fam_classmethod(r, k):
    p = Prog(r)
    p.need("classmethod", "repr-str")
    variant = ["ctor", "counter", "chain", "super", "form"][k % 5]
    C = p.fresh()
    S = p.fresh()
    a, b = r.randint(0, 9), r.randint(1, 9)
    if variant == "ctor":
        p.add(f"""
class {C}:
    def __init__(self, x, y):
        self.x = x
        self.y = y
    @classmethod
    def from_pair(cls, pair):
        return cls(pair[0], pair[1])
    @classmethod
    def zero(cls):
        return cls(0, 0)
    def __repr__(self):
        return type(self).__name__ + '(' + str(self.x) + ', ' + str(self.y) + ')'
class {S}({C}):
    pass
""")
        p.ex(f"{C}.from_pair(({a}, {b}))")
        p.ex(f"{S}.from_pair([{b}, {a}])")
        p.ex(f"{C}({a}, {b}).zero()")
        p.ex(f"{S}.zero()")
        p.ex(f"type({S}(1, 2).from_pair((3, 4))).__name__")
        p.ex(f"{C}.zero")
        p.ex(f"{C}.from_pair()")
        p.ex(f"{C}.from_pair((1, 2), 3)")
    elif variant == "counter":
        p.add(f"""
class {C}:
    made = 0
    def __init__(self):
        type(self).bump()
    @classmethod
    def bump(cls):
        cls.made += 1
        return cls.made
class {S}({C}):
    pass
""")
        p.add(f"""
for i in range({a % 3 + 1}):
    {C}()
for i in range({b % 3 + 1}):
    {S}()
print({C}.made, {S}.made, {C}().made)
print({S}.bump(), {C}.bump())
""")
    elif variant == "chain":
        p.add(f"""
class {C}:
    scale = {b}
    def __init__(self, v):
        self.v = v
    @classmethod
    def make(cls, v):
        return cls(v * cls.scale)
    @classmethod
    def pair(cls, v):
        return [cls.make(v), cls.make(v + 1)]
    def __repr__(self):
        return type(self).__name__ + ':' + str(self.v)
class {S}({C}):
    scale = {b + 10}
""")
        p.ex(f"{C}.pair({a})")
        p.ex(f"{S}.pair({a})")
        p.ex(f"{S}({a}).make(1)")
        p.ex(f"[c.make(1) for c in [{C}, {S}]]")
    elif variant == "super":
        p.need("super")
        p.add(f"""
class {C}:
    def __init__(self, tag):
        self.tag = tag
    @classmethod
    def create(cls, tag):
        print('base create for', cls.__name__)
        return cls(tag)
class {S}({C}):
    @classmethod
    def create(cls, tag):
        obj = super().create(tag + '!')
        obj.extra = True
        return obj
""")
        p.ex(f"{C}.create('a').tag")
        p.ex(f"type({S}.create('b')).__name__")
        p.ex(f"{S}.create('c').tag, {S}.create('d').extra")
        p.ex(f"{S}('e').create('f').tag")
        p.ex(f"hasattr({C}.create('g'), 'extra')")
    else:
        p.add(f"""
def build(cls, n):
    return [cls.__name__] * n
class {C}:
    build = classmethod(build)
    @classmethod
    def name(cls):
        return cls.__name__
class {S}({C}):
    pass
""")
        p.ex(f"{C}.build({a % 3 + 1})")
        p.ex(f"{S}().build(2)")
        p.ex(f"({C}.name(), {S}.name(), {S}().name())")
        p.ex(f"[f() for f in [{C}.name, {S}.name]]")
    return p


def fam_staticmethod(r, k):
    p = Prog(r)
    p.need("staticmethod", "repr-str")
    variant = ["basic", "from-method", "override", "form"][k % 4]
    C = p.fresh()
    S = p.fresh()
    a, b = r.randint(0, 9), r.randint(1, 9)
    if variant == "basic":
        p.add(f"""
class {C}:
    @staticmethod
    def add(x, y={b}):
        return x + y
    @staticmethod
    def nothing():
        return 'nothing'
""")
        for e in [f"{C}.add({a})", f"{C}().add({a}, {b})", f"{C}.nothing()", f"{C}().nothing()",
                  f"{C}.add()", f"{C}().add(1, 2, 3)", f"list(map({C}.add, [1, 2]))"]:
            p.ex(e)
    elif variant == "from-method":
        p.add(f"""
class {C}:
    def __init__(self, v):
        self.v = v
    @staticmethod
    def clamp(x, lo, hi):
        return max(lo, min(hi, x))
    def clamped(self):
        return self.clamp(self.v, 0, {b}), {C}.clamp(self.v, {b}, 10)
""")
        for v in [a, -a - 1, 20]:
            p.ex(f"{C}({v}).clamped()")
    elif variant == "override":
        p.add(f"""
class {C}:
    @staticmethod
    def kind():
        return 'base'
    def who(self):
        return self.kind()
class {S}({C}):
    @staticmethod
    def kind():
        return 'sub'
""")
        p.ex(f"({C}().who(), {S}().who(), {S}.kind(), {C}.kind())")
    else:
        p.add(f"""
def twice(x):
    return x * 2
class {C}:
    twice = staticmethod(twice)
""")
        p.ex(f"({C}.twice({a}), {C}().twice('ab'))")
        p.need("qualname")
        p.ex(f"{C}().twice()")
    return p


def fam_getattr(r, k):
    p = Prog(r)
    p.need("getattr-hook", "repr-str")
    variant = ["default", "raise", "dict-backed", "inherited"][k % 4]
    C = p.fresh()
    a = r.randint(0, 9)
    if variant == "default":
        p.add(f"""
class {C}:
    kind = 'cls'
    def __init__(self):
        self.x = {a}
    def method(self):
        return 'method'
    def __getattr__(self, name):
        print('__getattr__', name)
        return '<' + name + '>'
""")
        p.add(f"o = {C}()")
        for e in ["o.x", "o.kind", "o.method()", "o.missing", "getattr(o, 'other')",
                  "getattr(o, 'x', 0)", "hasattr(o, 'anything')"]:
            p.ex(e)
        p.st("o.missing = 5", "o.missing")
    elif variant == "raise":
        p.add(f"""
class {C}:
    def __init__(self):
        self.x = {a}
    def __getattr__(self, name):
        if name == 'alias':
            return self.x
        raise AttributeError('no ' + name + ' here')
""")
        p.add(f"o = {C}()")
        for e in ["o.alias", "o.nope", "getattr(o, 'nope', 'dflt')", "hasattr(o, 'nope')",
                  "hasattr(o, 'alias')", "getattr(o, 'x')"]:
            p.ex(e)
    elif variant == "dict-backed":
        p.add(f"""
class {C}:
    def __init__(self, **fields):
        self.fields = fields
    def __getattr__(self, name):
        fields = self.fields
        if name in fields:
            return fields[name]
        raise AttributeError(name)
""")
        p.add(f"o = {C}(a={a}, b='bee')")
        for e in ["o.a", "o.b", "o.fields", "o.c", "getattr(o, 'c', None)"]:
            p.ex(e)
        p.st("o.a = 100", "(o.a, o.fields)")
    else:
        S = p.fresh()
        p.need("super")
        p.add(f"""
class {C}:
    def __getattr__(self, name):
        return 'base:' + name
class {S}({C}):
    def __getattr__(self, name):
        if name == 'special':
            return 'sub:special'
        return super().__getattr__(name)
""")
        p.add(f"o = {S}()")
        for e in ["o.special", "o.other", f"{C}().special"]:
            p.ex(e)
    return p


def fam_setattr(r, k):
    p = Prog(r)
    p.need("setattr-hook", "repr-str")
    variant = ["object", "super", "log-dict", "refuse", "transform"][k % 5]
    C = p.fresh()
    a, b = r.randint(0, 9), r.randint(0, 9)
    if variant == "object":
        p.need("object-setattr")
        p.add(f"""
LOG = []
class {C}:
    def __init__(self, a):
        self.a = a
        self.b = a + 1
    def __setattr__(self, name, value):
        LOG.append((name, value))
        object.__setattr__(self, name, value)
""")
        p.add(f"o = {C}({a})\no.c = {b}\no.a = 'x'\nsetattr(o, 'd', None)")
        p.ex("LOG")
        p.ex("(o.a, o.b, o.c, o.d)")
    elif variant == "super":
        p.need("super")
        S = p.fresh()
        p.add(f"""
class {C}:
    def __init__(self):
        self.base_set = True
class {S}({C}):
    def __init__(self, v):
        super().__init__()
        self.v = v
    def __setattr__(self, name, value):
        print('set', name, '=', value)
        super().__setattr__(name, value)
""")
        p.add(f"o = {S}({a})\no.v += {b}")
        p.ex("(o.v, o.base_set)")
        p.ex(f"{C}().base_set")
    elif variant == "log-dict":
        p.need("instance-dict", "object-setattr")
        p.add(f"""
class {C}:
    def __init__(self):
        self.__dict__['_log'] = {{}}
        self.x = {a}
    def __setattr__(self, name, value):
        log = self.__dict__['_log']
        log[name] = log.get(name, 0) + 1
        object.__setattr__(self, name, value)
""")
        p.add(f"o = {C}()\no.x = {b}\no.y = 1\no.x = o.x + o.y")
        p.ex("o._log")
        p.ex("(o.x, o.y)")
        p.ex("sorted(o.__dict__)")
    elif variant == "refuse":
        p.need("object-setattr")
        p.add(f"""
class {C}:
    def __init__(self, v):
        object.__setattr__(self, 'v', v)
    def __setattr__(self, name, value):
        raise AttributeError('{C} is frozen: cannot set ' + name)
""")
        p.add(f"o = {C}({a})")
        p.st("o.v = 1", "o.v")
        p.st("o.w = 1", "o.w")
        p.st("setattr(o, 'v', 2)", "o.v")
        p.ex("o.v")
    else:
        p.need("super")
        p.add(f"""
class {C}:
    def __setattr__(self, name, value):
        if isinstance(value, int):
            value = value * 100
        super().__setattr__(name, value)
""")
        p.add(f"o = {C}()\no.i = {a}\no.s = 's'\no.f = 1.5")
        p.ex("(o.i, o.s, o.f)")
        p.st("o.i += 1", "o.i")
    return p


def fam_dict(r, k):
    p = Prog(r)
    p.need("instance-dict", "repr-str")
    variant = ["read", "write", "vars", "subclass"][k % 4]
    C = p.fresh()
    a, b = r.randint(0, 9), r.randint(0, 9)
    p.add(f"""
class {C}:
    kind = 'class attr'
    def __init__(self, a, b):
        self.a = a
        self.b = b
    def total(self):
        return self.a + self.b
""")
    p.add(f"o = {C}({a}, {b})")
    if variant == "read":
        p.ex("o.__dict__")
        p.st(f"o.c = {a + b}", "o.__dict__")
        p.ex("'kind' in o.__dict__")
        p.ex("list(o.__dict__.keys())")
        p.ex("sorted(o.__dict__.items())")
        p.ex("o.__dict__['a']")
        p.ex("o.__dict__['kind']")
    elif variant == "write":
        p.st("o.__dict__['a'] = 50", "(o.a, o.total())")
        p.st("o.__dict__['new'] = 'n'", "o.new")
        p.st("del o.__dict__['b']", "o.__dict__")
        p.ex("o.total()")
        p.st("d = o.__dict__;; d['b'] = 1", "(o.b, o is o, d is o.__dict__)")
        p.st("o.__dict__.update({'a': 7, 'z': 0})", "o.__dict__")
        p.st("o.kind = 'own'", "(o.kind, o.__dict__['kind'], " + C + ".kind)")
    elif variant == "vars":
        p.need("vars")
        p.ex("vars(o)")
        p.st("o.c = [1]", "vars(o)")
        p.ex("vars(o) is o.__dict__")
        p.ex("sorted(vars(o))")
        p.ex("vars(o)['a']")
        p.st("vars(o)['a'] = -1", "o.a")
        p.ex("vars(1)")
        p.ex("len(vars(o))")
    else:
        S = p.fresh()
        p.need("super")
        p.add(f"""
class {S}({C}):
    def __init__(self, a):
        self.first = 'sub'
        super().__init__(a, a * 2)
""")
        p.add(f"s = {S}({a})")
        p.ex("s.__dict__")
        p.ex("list(s.__dict__)")
        p.st("s.__dict__.clear()", "s.__dict__")
        p.ex("s.first")
        p.ex("s.kind")
    return p


def fam_exception(r, k):
    p = Prog(r)
    p.need("exc-subclass")
    variant = ["plain", "attrs", "hierarchy", "str", "builtin-base", "raise-class", "args"][k % 7]
    E = r.choice(["AppError", "ParseError", "ShapeMismatch", "GradError", "BadInput"])
    base = r.choice(["Exception", "ValueError", "RuntimeError"])
    msg = r.choice(["'bad value'", "'shape (2, 3) vs (3,)'", "'oops'", "''"])
    if variant == "plain":
        p.add(f"""
class {E}({base}):
    pass
try:
    raise {E}({msg})
except {E} as e:
    print(type(e).__name__, repr(str(e)), e.args, isinstance(e, {base}), isinstance(e, Exception))
try:
    raise {E}({msg})
except {base} as e:
    print('as {base}:', type(e).__name__, e)
try:
    raise {E}({msg})
except Exception as e:
    print('as Exception:', repr(e))
print({E}.__name__, issubclass({E}, {base}), issubclass({E}, Exception), issubclass({base}, {E}))
""")
    elif variant == "attrs":
        p.need("super")
        code = r.randint(100, 599)
        p.add(f"""
class {E}({base}):
    def __init__(self, msg, code={code}):
        super().__init__(msg)
        self.code = code
def validate(x):
    if x < 0:
        raise {E}('negative: ' + str(x), code=x)
    if x == 0:
        raise {E}('zero')
    return x
for x in [3, 0, -{r.randint(1, 9)}]:
    try:
        print('ok', validate(x))
    except {E} as e:
        print(type(e).__name__, e, e.code, e.args)
""")
    elif variant == "hierarchy":
        p.add(f"""
class {E}({base}):
    pass
class Sub{E}({E}):
    pass
class Other{E}({base}):
    pass
def fail(kind):
    if kind == 0:
        raise Sub{E}('sub')
    if kind == 1:
        raise Other{E}('other')
    if kind == 2:
        raise {E}('base')
    raise KeyError('k')
for kind in range(4):
    try:
        try:
            fail(kind)
        except Sub{E} as e:
            print('Sub handler', e)
        except {E} as e:
            print('{E} handler', type(e).__name__, e)
    except {base} as e:
        print('{base} handler', type(e).__name__, e)
    except Exception as e:
        print('outer', type(e).__name__, e)
print(issubclass(Sub{E}, {base}), issubclass(Other{E}, {E}))
""")
    elif variant == "str":
        p.add(f"""
class {E}({base}):
    def __init__(self, where, what):
        super().__init__(where, what)
        self.where = where
        self.what = what
    def __str__(self):
        return 'at ' + str(self.where) + ': ' + self.what
try:
    raise {E}({r.randint(1, 99)}, {msg})
except {base} as e:
    print(type(e).__name__, '|', e, '|', str(e), '|', e.args, '|', repr(e))
    print(f'{{e}} / {{e!r}}')
""")
        p.need("super", "repr-str")
    elif variant == "builtin-base":
        bb = r.choice(["KeyError", "IndexError", "TypeError", "ArithmeticError", "LookupError"])
        p.add(f"""
class {E}({bb}):
    pass
try:
    raise {E}({msg})
except {bb} as e:
    print(type(e).__name__, str(e), e.args)
try:
    raise {E}('a', 2)
except Exception as e:
    print(type(e).__name__, str(e), repr(e))
try:
    {{}}['missing']
except {E}:
    print('wrong handler')
except LookupError as e:
    print('LookupError handler', type(e).__name__, e)
""")
    elif variant == "raise-class":
        p.add(f"""
class {E}({base}):
    code = 7
try:
    raise {E}
except {E} as e:
    print(type(e).__name__, repr(str(e)), e.args, e.code)
def reraiser():
    try:
        raise {E}({msg})
    except {E}:
        print('inner caught, re-raising')
        raise
try:
    reraiser()
except {base} as e:
    print('outer caught', type(e).__name__, repr(str(e)))
try:
    try:
        raise {E}('first')
    except {E} as e:
        raise ValueError('second: ' + str(e))
except ValueError as e:
    print(type(e).__name__, e)
""")
    else:
        p.add(f"""
class {E}({base}):
    pass
for args in [(), ('one',), ('a', 2), (3,)]:
    e = {E}(*args)
    print(len(e.args), repr(str(e)), repr(e))
err = {E}('kept')
try:
    raise err
except {E} as e:
    print(e is err, e)
""")
    return p


def fam_super(r, k):
    p = Prog(r)
    p.need("super", "repr-str")
    variant = ["dunders", "init-chain", "getitem", "explicit"][k % 4]
    C = p.fresh()
    S = p.fresh()
    a, b = r.randint(1, 9), r.randint(1, 9)
    if variant == "dunders":
        p.need("binop", "compare", "len", "NotImplemented")
        p.add(f"""
class {C}:
    def __init__(self, v):
        self.v = v
    def __add__(self, other):
        return type(self)(self.v + other.v)
    def __eq__(self, other):
        return isinstance(other, {C}) and self.v == other.v
    def __len__(self):
        return self.v
    def __repr__(self):
        return '{C}(' + str(self.v) + ')'
class {S}({C}):
    def __add__(self, other):
        r = super().__add__(other)
        r.v = r.v * 10
        return r
    def __eq__(self, other):
        if not isinstance(other, {S}):
            return NotImplemented
        return super().__eq__(other)
    def __len__(self):
        return super().__len__() + 1
    def __repr__(self):
        return 'sub ' + super().__repr__()
""")
        for e in [f"{S}({a}) + {S}({b})", f"{C}({a}) + {S}({b})", f"{S}({a}) + {C}({b})",
                  f"{S}({a}) == {S}({a})", f"{S}({a}) == {C}({a})", f"{C}({a}) == {S}({a})",
                  f"len({S}({a}))", f"[{S}(1), {C}(1)]"]:
            p.ex(e)
    elif variant == "init-chain":
        p.add(f"""
class {C}:
    def __init__(self, x):
        print('{C}.__init__', x)
        self.x = x
    def show(self):
        return '{C}.show ' + str(self.x)
class {S}({C}):
    def __init__(self, x, y):
        super().__init__(x)
        self.y = y
    def show(self):
        return super().show() + ' and {S}.show ' + str(self.y)
class Third({S}):
    def __init__(self):
        super().__init__({a}, {b})
    def show(self):
        return '[' + super().show() + ']'
""")
        p.ex(f"{S}({a}, {b}).show()")
        p.ex("Third().show()")
        p.ex(f"super({S}, Third()).show()")
    elif variant == "getitem":
        p.need("item", "call")
        p.add(f"""
class {C}:
    def __getitem__(self, i):
        return i * 2
    def __call__(self, x):
        return x - 1
class {S}({C}):
    def __getitem__(self, i):
        return super().__getitem__(i) + 1
    def __call__(self, x):
        return super().__call__(x) * 3
""")
        p.ex(f"({S}()[{a}], {S}()({b}), {C}()[{a}])")
        p.ex(f"{S}()[{a}, {b}]")
    else:
        p.add(f"""
class {C}:
    def name(self):
        return '{C}'
class {S}({C}):
    def name(self):
        return '{S}'
    def both(self):
        return self.name() + '/' + super().name() + '/' + super({S}, self).name()
""")
        p.ex(f"{S}().both()")
        p.ex(f"{C}.name({S}())")
    return p


def fam_inherit(r, k):
    p = Prog(r)
    p.need("repr-str")
    variant = ["binop", "len-bool", "eq-hash", "call-repr", "getitem-iter"][k % 5]
    C = p.fresh()
    S = p.fresh()
    a, b = r.randint(1, 9), r.randint(1, 9)
    if variant == "binop":
        p.need("binop", "reflected")
        p.add(f"""
class {C}:
    def __init__(self, v):
        self.v = v
    def __add__(self, other):
        return {C}(self.v + other)
    def __radd__(self, other):
        return self.__add__(other)
    def __mul__(self, other):
        return {C}(self.v * other)
    def __repr__(self):
        return type(self).__name__ + '(' + str(self.v) + ')'
class {S}({C}):
    def __add__(self, other):
        return {S}(self.v - other)
""")
        for e in [f"{C}({a}) + {b}", f"{S}({a}) + {b}", f"{b} + {S}({a})", f"{S}({a}) * {b}",
                  f"{b} + {C}({a})"]:
            p.ex(e)
    elif variant == "len-bool":
        p.need("truth", "len")
        p.add(f"""
class {C}:
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
class {S}({C}):
    def __len__(self):
        return 0
class Flag{S}({S}):
    def __bool__(self):
        return True
""")
        for e in [f"len({C}({a}))", f"bool({C}({a}))", f"len({S}({a}))", f"bool({S}({a}))",
                  f"bool(Flag{S}(0))", f"len(Flag{S}(0))"]:
            p.ex(e)
    elif variant == "eq-hash":
        p.need("compare", "hash", "hash-builtin")
        p.add(f"""
class {C}:
    def __init__(self, v):
        self.v = v
    def __eq__(self, other):
        return self.v == other.v
    def __hash__(self):
        return self.v
class {S}({C}):
    def __eq__(self, other):
        return self.v % 10 == other.v % 10
""")
        p.ex(f"({C}({a}) == {C}({a}), hash({C}({a})))")
        p.ex(f"{S}({a}) == {S}({a + 10})")
        p.ex(f"{C}({a}) == {C}({a + 10})")
        p.ex(f"hash({S}({a}))")
        p.ex(f"{S}.__hash__ is None")
    elif variant == "call-repr":
        p.need("call")
        p.add(f"""
class {C}:
    def __call__(self, x):
        return 'base ' + str(x)
    def __repr__(self):
        return 'base'
    def __str__(self):
        return 'base str'
class {S}({C}):
    def __call__(self, x):
        return 'sub ' + str(x)
    def __repr__(self):
        return 'sub'
""")
        p.ex(f"({C}()({a}), {S}()({a}))")
        p.ex(f"[{C}(), {S}()]")
        p.ex(f"str({S}())")
        p.ex(f"{C}.__call__({S}(), {b})")
        p.add(f"print({C}(), {S}())")
    else:
        p.need("item", "iter")
        p.add(f"""
class {C}:
    def __init__(self, xs):
        self.xs = xs
    def __getitem__(self, i):
        return self.xs[i]
class {S}({C}):
    def __getitem__(self, i):
        if i >= {a % 3 + 1}:
            raise IndexError(i)
        return self.xs[i] * 2
""")
        xs = [r.randint(0, 9) for _ in range(4)]
        p.ex(f"list({C}({xs}))")
        p.ex(f"list({S}({xs}))")
        p.ex(f"[x for x in {S}({xs})]")
    return p


# ---- the hand-written MiniTorch programs ------------------------------------------------------

MINITORCH = {}

MINITORCH["scalar-ops"] = ("binop", ("binop", "reflected", "unary", "repr-str"), """
class ScalarHistory:
    def __init__(self, last_fn=None, inputs=()):
        self.last_fn = last_fn
        self.inputs = inputs

_var_count = 0

class Scalar:
    def __init__(self, v, back=None, name=None):
        global _var_count
        _var_count += 1
        self.unique_id = _var_count
        self.data = float(v)
        self.history = back if back is not None else ScalarHistory()
        self.name = name if name is not None else str(self.unique_id)
    def __repr__(self):
        return 'Scalar(' + str(self.data) + ')'
    def _lift(self, b):
        return b if isinstance(b, Scalar) else Scalar(b)
    def __add__(self, b):
        b = self._lift(b)
        return Scalar(self.data + b.data, ScalarHistory('add', (self, b)))
    def __radd__(self, b):
        return self + b
    def __mul__(self, b):
        b = self._lift(b)
        return Scalar(self.data * b.data, ScalarHistory('mul', (self, b)))
    def __rmul__(self, b):
        return self * b
    def __neg__(self):
        return Scalar(-self.data, ScalarHistory('neg', (self,)))
    def __sub__(self, b):
        return self + (-self._lift(b))
    def __rsub__(self, b):
        return self._lift(b) + (-self)
    def __truediv__(self, b):
        b = self._lift(b)
        return Scalar(self.data / b.data, ScalarHistory('div', (self, b)))
    def __rtruediv__(self, b):
        return self._lift(b) / self

x = Scalar(2.0, name='x')
y = Scalar(3.0, name='y')
z = x * y + 2 - x / 4
print(z, z.history.last_fn, [type(i).__name__ for i in z.history.inputs])
print(1 + x, 10 - y, 3 * x, 1 / x, -x, x - 1)
print([s.name for s in z.history.inputs[0].history.inputs])
w = sum([x, y, x])
print(w, w.history.last_fn)
try:
    x + 'a'
except Exception as e:
    print(type(e).__name__, e)
print('end')
""")

MINITORCH["scalar-compare-hash"] = ("compare", ("compare", "truth", "hash", "hash-builtin",
                                                "repr-str"), """
class Scalar:
    def __init__(self, v):
        self.data = float(v)
    def __lt__(self, b):
        return Scalar(1.0 if self.data < _val(b) else 0.0)
    def __gt__(self, b):
        return Scalar(1.0 if self.data > _val(b) else 0.0)
    def __eq__(self, b):
        return Scalar(1.0 if self.data == _val(b) else 0.0)
    def __bool__(self):
        return bool(self.data)
    def __hash__(self):
        return int(self.data * 1000)
    def __repr__(self):
        return 'Scalar(' + str(self.data) + ')'

def _val(b):
    return b.data if isinstance(b, Scalar) else float(b)

a, b = Scalar(1.5), Scalar(2.0)
print(a < b, a > b, a == b, a == 1.5, 2 > a, 1.5 == a)
print('lt' if a < b else 'ge', 'eq' if a == Scalar(1.5) else 'ne')
print(sorted([Scalar(3), Scalar(1), Scalar(2)]))
print(max([Scalar(3), Scalar(1), Scalar(2)]))
print(hash(a), hash(Scalar(0.25)))
seen = {a: 'a', b: 'b'}
print(seen[a], len(seen), Scalar(1.5) in seen)
print('end')
""")

MINITORCH["scalar-backprop"] = ("binop", ("binop", "reflected", "hash", "compare", "repr-str",
                                          "classmethod", "staticmethod", "NotImplemented"), """
class Context:
    def __init__(self):
        self.saved_values = ()
    def save_for_backward(self, *values):
        self.saved_values = values

class History:
    def __init__(self, last_fn=None, ctx=None, inputs=()):
        self.last_fn = last_fn
        self.ctx = ctx
        self.inputs = inputs

class ScalarFunction:
    @classmethod
    def apply(cls, *vals):
        raw = []
        for v in vals:
            raw.append(v.data if isinstance(v, Scalar) else float(v))
        scalars = [v if isinstance(v, Scalar) else Scalar(v) for v in vals]
        ctx = Context()
        out = cls.forward(ctx, *raw)
        return Scalar(out, History(cls, ctx, scalars))

class Mul(ScalarFunction):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b
    @staticmethod
    def backward(ctx, d):
        a, b = ctx.saved_values
        return d * b, d * a

class Add(ScalarFunction):
    @staticmethod
    def forward(ctx, a, b):
        return a + b
    @staticmethod
    def backward(ctx, d):
        return d, d

_next_id = [0]

class Scalar:
    def __init__(self, v, history=None):
        _next_id[0] += 1
        self.unique_id = _next_id[0]
        self.data = float(v)
        self.history = history if history is not None else History()
        self.derivative = None
    def __add__(self, b):
        return Add.apply(self, b)
    def __radd__(self, b):
        return Add.apply(b, self)
    def __mul__(self, b):
        return Mul.apply(self, b)
    def __rmul__(self, b):
        return Mul.apply(b, self)
    def __hash__(self):
        return self.unique_id
    def __eq__(self, other):
        if not isinstance(other, Scalar):
            return NotImplemented
        return self.unique_id == other.unique_id
    def is_leaf(self):
        return self.history.last_fn is None
    def __repr__(self):
        return 'Scalar(' + str(self.data) + ')'

def topological_sort(v):
    order = []
    seen = {}
    def visit(x):
        if x in seen or x.is_leaf():
            return
        seen[x] = True
        for i in x.history.inputs:
            visit(i)
        order.append(x)
    visit(v)
    return order[::-1]

def backpropagate(v, d):
    derivs = {v: d}
    for node in topological_sort(v):
        dn = derivs.get(node, 0.0)
        grads = node.history.last_fn.backward(node.history.ctx, dn)
        for inp, g in zip(node.history.inputs, grads):
            if inp.is_leaf():
                inp.derivative = (inp.derivative or 0.0) + g
            else:
                derivs[inp] = derivs.get(inp, 0.0) + g

x = Scalar(2.0)
y = Scalar(5.0)
z = x * y + x * 3 + 1
print(z, z.history.last_fn.__name__)
backpropagate(z, 1.0)
print(x.derivative, y.derivative)
print([n.history.last_fn.__name__ for n in topological_sort(z)])
print('end')
""")

MINITORCH["module-setattr"] = ("setattr-hook", ("setattr-hook", "getattr-hook", "instance-dict",
                                                "super", "call", "repr-str"), """
class Parameter:
    def __init__(self, value, name=None):
        self.value = value
        self.name = name
    def update(self, x):
        self.value = x
    def __repr__(self):
        return repr(self.value)

class Module:
    def __init__(self):
        self.__dict__['_modules'] = {}
        self.__dict__['_parameters'] = {}
        self.training = True
    def modules(self):
        return list(self.__dict__['_modules'].values())
    def named_parameters(self):
        out = []
        for k, p in self.__dict__['_parameters'].items():
            out.append((k, p))
        for mname, m in self.__dict__['_modules'].items():
            for k, p in m.named_parameters():
                out.append((mname + '.' + k, p))
        return out
    def parameters(self):
        return [p for _, p in self.named_parameters()]
    def add_parameter(self, k, v):
        val = Parameter(v, k)
        self.__dict__['_parameters'][k] = val
        return val
    def __setattr__(self, key, val):
        if isinstance(val, Parameter):
            self.__dict__['_parameters'][key] = val
        elif isinstance(val, Module):
            self.__dict__['_modules'][key] = val
        else:
            super().__setattr__(key, val)
    def __getattr__(self, key):
        if key in self.__dict__['_parameters']:
            return self.__dict__['_parameters'][key]
        if key in self.__dict__['_modules']:
            return self.__dict__['_modules'][key]
        return None
    def __call__(self, *args):
        return self.forward(*args)

class Linear(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weights = Parameter([[0.5] * n_out for _ in range(n_in)])
        self.bias = Parameter([0.0] * n_out)
        self.n_out = n_out
    def forward(self, xs):
        out = []
        for j in range(self.n_out):
            s = self.bias.value[j]
            for i, x in enumerate(xs):
                s = s + x * self.weights.value[i][j]
            out.append(s)
        return out

class Network(Module):
    def __init__(self):
        super().__init__()
        self.layer1 = Linear(2, 3)
        self.layer2 = Linear(3, 1)
        self.scale = Parameter(2.0)
    def forward(self, xs):
        return [self.scale.value * v for v in self.layer2(self.layer1(xs))]

net = Network()
print([name for name, _ in net.named_parameters()])
print(len(net.parameters()), len(net.modules()))
print(sorted(net.__dict__))
print(net.training, 'training' in net.__dict__, 'layer1' in net.__dict__)
print(net([1.0, 2.0]))
print(net.missing, net.layer1.bias)
net.layer1.bias.update([1.0, 1.0, 1.0])
print(net([1.0, 2.0]))
net.extra = net.add_parameter('extra', 7)
print([name for name, _ in net.named_parameters()], net.extra.value)
print('end')
""")

MINITORCH["module-train-eval"] = ("setattr-hook", ("setattr-hook", "getattr-hook", "instance-dict",
                                                   "object-setattr", "super", "vars"), """
class Module:
    def __init__(self):
        self._modules = {}
        self._parameters = {}
        self.training = True
    def __setattr__(self, key, val):
        if isinstance(val, Module) and key != '_modules':
            self.__dict__['_modules'][key] = val
        else:
            object.__setattr__(self, key, val)
    def __getattr__(self, key):
        mods = self.__dict__['_modules']
        if key in mods:
            return mods[key]
        raise AttributeError(type(self).__name__ + ' has no ' + key)
    def modules(self):
        return list(self._modules.values())
    def train(self):
        self.training = True
        for m in self.modules():
            m.train()
    def eval(self):
        self.training = False
        for m in self.modules():
            m.eval()
    def walk(self, prefix=''):
        out = [(prefix or 'root', self.training)]
        for name, m in self._modules.items():
            out += m.walk(prefix + name + '.')
        return out

class Leaf(Module):
    pass

class Block(Module):
    def __init__(self):
        super().__init__()
        self.a = Leaf()
        self.b = Leaf()

class Top(Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.head = Leaf()

t = Top()
print(t.walk())
t.eval()
print(t.walk())
t.block.train()
print(t.walk())
print(sorted(vars(t)), list(t._modules))
try:
    t.nothing
except AttributeError as e:
    print('AttributeError', e)
print(getattr(t, 'nothing', 'dflt'), hasattr(t, 'head'))
print('end')
""")

MINITORCH["function-apply"] = ("classmethod", ("classmethod", "staticmethod", "super"), """
class Context:
    def __init__(self, no_grad=False):
        self.no_grad = no_grad
        self.saved_values = ()
    def save_for_backward(self, *values):
        if self.no_grad:
            return
        self.saved_values = values

class Function:
    calls = []
    @classmethod
    def _backward(cls, ctx, grad_out):
        return cls.backward(ctx, grad_out)
    @classmethod
    def _forward(cls, ctx, *inps):
        return cls.forward(ctx, *inps)
    @classmethod
    def apply(cls, *vals):
        Function.calls.append(cls.__name__)
        ctx = Context(False)
        c = cls._forward(ctx, *vals)
        return c, ctx

class Neg(Function):
    @staticmethod
    def forward(ctx, a):
        return -a
    @staticmethod
    def backward(ctx, d):
        return -d

class Mul(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b
    @staticmethod
    def backward(ctx, d):
        a, b = ctx.saved_values
        return d * b, d * a

class Square(Mul):
    @classmethod
    def apply(cls, a):
        return super().apply(a, a)

out, ctx = Mul.apply(3.0, 4.0)
print(out, ctx.saved_values, Mul._backward(ctx, 1.0))
out, ctx = Neg.apply(2.5)
print(out, ctx.saved_values, Neg._backward(ctx, 1.0))
out, ctx = Square.apply(5.0)
print(out, Square._backward(ctx, 2.0))
print(Function.calls)
try:
    Function.apply(1.0)
except AttributeError as e:
    print('AttributeError', e)
print('end')
""")

MINITORCH["operators-dunder"] = ("binop", ("binop", "reflected", "unary", "compare", "len",
                                           "item", "iter", "iter-next", "repr-str",
                                           "NotImplemented"), """
class Vector:
    def __init__(self, *xs):
        self.xs = list(xs)
    def __len__(self):
        return len(self.xs)
    def __getitem__(self, i):
        return self.xs[i]
    def __setitem__(self, i, v):
        self.xs[i] = v
    def __iter__(self):
        return iter(self.xs)
    def _zip(self, other, fn):
        if isinstance(other, Vector):
            if len(other) != len(self):
                raise ValueError('lengths ' + str(len(self)) + ' and ' + str(len(other)))
            return Vector(*[fn(a, b) for a, b in zip(self.xs, other.xs)])
        if isinstance(other, (int, float)):
            return Vector(*[fn(a, other) for a in self.xs])
        return NotImplemented
    def __add__(self, other):
        return self._zip(other, lambda a, b: a + b)
    __radd__ = __add__
    def __mul__(self, other):
        return self._zip(other, lambda a, b: a * b)
    def __rmul__(self, other):
        return self * other
    def __sub__(self, other):
        return self._zip(other, lambda a, b: a - b)
    def __rsub__(self, other):
        return -self + other
    def __neg__(self):
        return Vector(*[-a for a in self.xs])
    def __matmul__(self, other):
        return sum((self * other).xs)
    def __eq__(self, other):
        return isinstance(other, Vector) and self.xs == other.xs
    def __repr__(self):
        return 'Vector' + repr(tuple(self.xs))

u = Vector(1, 2, 3)
v = Vector(0.5, -1, 2)
print(u + v, u - v, 2 * u, u * 2, 1 - u, u @ v)
print(u == Vector(1, 2, 3), u != v, len(u), u[1], u[-1], list(v))
u[0] = 10
print(u, sum(u), max(u))
for f in [lambda: u + Vector(1), lambda: u + 'x', lambda: u @ 2]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
print('end')
""")

MINITORCH["tensor-data-errors"] = ("exc-subclass", ("exc-subclass", "super", "repr-str"), """
class IndexingError(RuntimeError):
    pass

class ShapeError(IndexingError):
    def __init__(self, a, b):
        super().__init__('cannot broadcast ' + str(a) + ' and ' + str(b))
        self.shapes = (a, b)

def shape_broadcast(a, b):
    out = []
    n = max(len(a), len(b))
    a = (1,) * (n - len(a)) + tuple(a)
    b = (1,) * (n - len(b)) + tuple(b)
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise ShapeError(a, b)
        out.append(max(x, y))
    return tuple(out)

def index(shape, idx):
    if len(idx) != len(shape):
        raise IndexingError('Index ' + str(idx) + ' must be size of ' + str(shape) + '.')
    for i, s in zip(idx, shape):
        if i >= s or i < 0:
            raise IndexingError('Index ' + str(idx) + ' out of range ' + str(shape) + '.')
    return sum(idx)

for a, b in [((2, 3), (3,)), ((2, 1), (1, 4)), ((2, 3), (2,)), ((5,), (4, 5, 1))]:
    try:
        print(a, b, '->', shape_broadcast(a, b))
    except ShapeError as e:
        print('ShapeError', e, e.shapes, isinstance(e, RuntimeError), e.args)
for idx in [(0, 1), (2, 0), (1,)]:
    try:
        print(index((2, 3), idx))
    except IndexingError as e:
        print(type(e).__name__, e)
try:
    shape_broadcast((3,), (4,))
except RuntimeError as e:
    print('as RuntimeError:', type(e).__name__, repr(str(e)))
print('end')
""")

MINITORCH["parameter-property"] = ("property", ("property", "repr-str", "setattr-hook",
                                                "getattr-hook", "object-setattr",
                                                "instance-dict"), """
class Parameter:
    def __init__(self, x, name=None):
        self._value = x
        self.name = name
        self.updates = 0
    @property
    def value(self):
        return self._value
    @value.setter
    def value(self, x):
        self.updates += 1
        self._value = x
    def update(self, x):
        self.value = x
    def __repr__(self):
        return 'Parameter(' + repr(self._value) + ')'
    def __str__(self):
        return str(self._value)

class Module:
    def __init__(self):
        self.__dict__['_parameters'] = {}
    def __setattr__(self, key, val):
        if isinstance(val, Parameter):
            val.name = key
            self.__dict__['_parameters'][key] = val
        else:
            object.__setattr__(self, key, val)
    def __getattr__(self, key):
        ps = self.__dict__['_parameters']
        if key in ps:
            return ps[key]
        raise AttributeError(key)

class SGD:
    def __init__(self, params, lr=1.0):
        self.params = params
        self.lr = lr
    def step(self, grads):
        for p in self.params:
            p.update(p.value - self.lr * grads[p.name])

m = Module()
m.w = Parameter(1.0)
m.b = Parameter(0.5)
m.lr = 0.1
opt = SGD(list(m.__dict__['_parameters'].values()), lr=m.lr)
for step in range(3):
    opt.step({'w': 2.0, 'b': -1.0})
print(m.w, m.b, repr(m.w), m.w.updates, sorted(m.__dict__))
print(f'{m.w.name}={m.w.value:.2f} {m.b.name}={m.b.value:.2f}')
try:
    m.w.name.value
except AttributeError as e:
    print('AttributeError', e)
try:
    m.nope
except AttributeError as e:
    print('AttributeError', e)
print('end')
""")

MINITORCH["datasets-graph"] = ("iter", ("iter", "iter-next", "len", "item", "classmethod",
                                        "format"), """
class Graph:
    def __init__(self, N, X, y):
        self.N = N
        self.X = X
        self.y = y
    @classmethod
    def simple(cls, N):
        X = [((i * 37) % 100 / 100, (i * 61) % 100 / 100) for i in range(N)]
        y = [1 if x1 < 0.5 else 0 for x1, x2 in X]
        return cls(N, X, y)
    @classmethod
    def xor(cls, N):
        X = [((i * 37) % 100 / 100, (i * 61) % 100 / 100) for i in range(N)]
        y = [1 if (x1 < 0.5) != (x2 < 0.5) else 0 for x1, x2 in X]
        return cls(N, X, y)
    def __len__(self):
        return self.N
    def __getitem__(self, i):
        return self.X[i], self.y[i]
    def __iter__(self):
        return iter(zip(self.X, self.y))
    def __format__(self, spec):
        return format(type(self).__name__ + '[' + str(self.N) + ']', spec)

class Labeled(Graph):
    pass

datasets = {'Simple': Graph.simple, 'Xor': Labeled.xor}
for name, make in datasets.items():
    g = make(6)
    print(f'{name:>7}: {g:<12}|', len(g), g[0], sum(y for _, y in g))
    print([y for (x1, x2), y in g])
print(type(Labeled.xor(2)).__name__, type(Labeled.simple(2)).__name__)
print('end')
""")


FAMILIES = [  # (feature, generator, count)
    ("binop", fam_binop, 16),
    ("reflected", fam_reflected, 16),
    ("inplace", fam_inplace, 16),
    ("unary", fam_unary, 8),
    ("compare", fam_compare, 14),
    ("compare-order", fam_compare_order, 8),
    ("truth", fam_truth, 8),
    ("item", fam_item, 10),
    ("iter", fam_iter, 10),
    ("contains", fam_contains, 8),
    ("hash", fam_hash, 10),
    ("call", fam_call, 8),
    ("repr-str-format", fam_text, 14),
    ("property", fam_property, 10),
    ("classmethod", fam_classmethod, 10),
    ("staticmethod", fam_staticmethod, 6),
    ("getattr-hook", fam_getattr, 8),
    ("setattr-hook", fam_setattr, 10),
    ("instance-dict", fam_dict, 8),
    ("exc-subclass", fam_exception, 14),
    ("super", fam_super, 8),
    ("inherit-dunder", fam_inherit, 10),
]

BITWISE = [  # the separate group: the language has no & | ^ << >>
    ("bitwise-binop", lambda r, k: fam_binop(r, k, BITOPS, True), 5),
    ("bitwise-reflected", lambda r, k: fam_reflected(r, k, BITOPS, True), 5),
    ("bitwise-inplace", lambda r, k: fam_inplace(r, k, BITOPS, True), 5),
]


def _incidental(text):
    """Needs a generated program has through an operand it tries, not the feature it tests:
    a string on the left of % formats, `@=` is a statement of its own."""
    import re
    return {need for pat, (need,) in ((r"'[^'\n]*' % ", ("str-percent",)), (r"@=", ("matmul-assign",)))
            if re.search(pat, text)}


def generate(seed=SEED):
    """Every program, in a fixed order: the generated data-model programs, the bitwise group,
    then the hand-written MiniTorch ones."""
    progs = []
    for group, fams in (("datamodel", FAMILIES), ("bitwise", BITWISE)):
        for feature, fn, count in fams:
            for k in range(count):
                r = random.Random(f"{seed}:{feature}:{k}")
                p = fn(r, k)
                text = p.text()
                needs = set(p.needs) | _incidental(text)
                progs.append(Program(len(progs), f"{feature}-{k:02d}", feature, group,
                                     tuple(sorted(needs)), text))
    for name, (feature, needs, text) in MINITORCH.items():
        progs.append(Program(len(progs), f"minitorch-{name}", feature, "minitorch",
                             tuple(sorted(needs)), text.lstrip("\n")))
    return progs


# What a program's text shows it depends on: (pattern, the needs of which it must declare one).
# test_datamodel.py checks every program against these, so that a program does not wait in the
# xfail list for one feature while it also depends, undeclared, on another.
_ARITH = "|".join(OPS.values())
_BITS = "|".join(BITOPS.values())
TEXT_NEEDS = [
    (rf"def __({_ARITH})__", {"binop"}),
    (rf"def __r({_ARITH})__", {"reflected"}),
    (rf"def __i({_ARITH})__", {"inplace"}),
    (rf"def __r?i?({_BITS})__|[^<>]<<[^<>]|[^<>]>>[^<>]| [&|^] |[&|^]=", {"bitwise"}),
    (r"def __(neg|pos|abs)__", {"unary"}),
    (r"def __(eq|ne|lt|le|gt|ge)__", {"compare"}),
    (r"def __bool__", {"truth"}),
    (r"def __len__", {"len", "truth"}),
    (r"def __(get|set|del)item__", {"item"}),
    (r"def __(iter|next)__", {"iter"}),
    (r"def __contains__", {"contains"}),
    (r"def __hash__|__hash__ =", {"hash"}),
    (r"def __call__", {"call"}),
    (r"def __(repr|str)__", {"repr-str"}),
    (r"def __format__", {"format"}),
    (r"\bproperty\b|\.setter\b", {"property"}),
    (r"\bclassmethod\b", {"classmethod"}),
    (r"\bstaticmethod\b", {"staticmethod"}),
    (r"def __getattr__", {"getattr-hook"}),
    (r"def __setattr__", {"setattr-hook"}),
    (r"__dict__", {"instance-dict"}),
    (r"\bvars\(", {"vars"}),
    (r"^class \w+\((Exception|ValueError|RuntimeError|KeyError|IndexError|TypeError|"
     r"ArithmeticError|LookupError)\)", {"exc-subclass"}),
    (r"\bsuper\(", {"super"}),
    (r"\bNotImplemented\b", {"NotImplemented"}),
    (r"\b(iter|next)\(", {"iter-next"}),
    (r"\bhash\(", {"hash-builtin"}),
    (r"object\.__setattr__", {"object-setattr"}),
    (r"'[^'\n]*' % ", {"str-percent"}),
    (r"@=", {"matmul-assign"}),
]


# needs that only the text shows: one declared without its pattern in the text is a mistake
TEXT_ONLY = ["bitwise", "format", "property", "classmethod", "staticmethod", "getattr-hook",
             "setattr-hook", "instance-dict", "vars", "exc-subclass", "super", "NotImplemented",
             "iter-next", "hash-builtin", "object-setattr", "str-percent", "matmul-assign"]


def lint(prog):
    """The needs prog's text shows and its list lacks, and those it lists that its text does not
    show, as messages (empty: none)."""
    import re
    out = []
    for pat, needs in TEXT_NEEDS:
        m = re.search(pat, prog.text, re.M)
        if m and not needs & set(prog.needs):
            out.append(f"{prog.name}: `{m.group(0).strip()}` but needs lack "
                       f"{' or '.join(sorted(needs))}")
        only = next(iter(needs))
        if not m and len(needs) == 1 and only in TEXT_ONLY and only in prog.needs:
            out.append(f"{prog.name}: needs {only} but nothing in its text uses it")
    for n in prog.needs:
        if n not in NEEDS:
            out.append(f"{prog.name}: unknown need {n!r}")
    return out


# ---- running ----------------------------------------------------------------------------------


def default_kernel():
    if os.environ.get("MT_KERNEL_BIN"):
        return os.environ["MT_KERNEL_BIN"]
    if os.environ.get("MT_ENGINE_LIB"):
        return os.path.join(os.path.dirname(os.environ["MT_ENGINE_LIB"]), "minitorch-kernel")
    return os.path.join(ROOT, "build", "minitorch-kernel")


def reference_python():
    return os.environ.get("MT_REFERENCE_PYTHON", sys.executable)


@dataclasses.dataclass
class Outcome:
    stdout: str
    failed: bool
    stderr: str


def _run(argv, path, timeout):
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1",
               XDG_CACHE_HOME=os.path.join(os.path.dirname(path), "cache"))
    try:
        p = subprocess.run(argv + [path], capture_output=True, text=True, timeout=timeout, env=env,
                           cwd=os.path.dirname(path))
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return Outcome(out, True, f"timed out after {timeout} s")
    return Outcome(p.stdout, p.returncode != 0, p.stderr)


def run_both(prog, kernel, timeout=20):
    """(CPython's outcome, the kernel's) for one program."""
    kernel = os.path.abspath(kernel)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, prog.name + ".py")
        with open(path, "w") as f:
            f.write(prog.text)
        ref = _run([reference_python(), "-I", "-S"], path, timeout)
        got = _run([kernel, "run"], path, timeout)
    return ref, got


def same(ref, got):
    return ref.stdout == got.stdout and ref.failed == got.failed


def report(prog, ref, got, kernel):
    """Both outputs, for a failure message."""
    import difflib
    lines = [f"program {prog.index} {prog.name} (feature {prog.feature}; needs "
             f"{', '.join(prog.needs)}): `datamodel_gen.py --dump {prog.name}` prints it",
             f"CPython ({reference_python()}) {'FAILED' if ref.failed else 'ok'}, "
             f"kernel ({kernel}) {'FAILED' if got.failed else 'ok'}"]
    diff = list(difflib.unified_diff(ref.stdout.splitlines(), got.stdout.splitlines(),
                                     "cpython", "kernel", lineterm="", n=2))
    if diff:
        lines += ["--- stdout diff (cpython -> kernel):"] + diff[:80]
    lines += ["--- CPython stdout:", ref.stdout.rstrip()[-3000:]]
    if ref.failed:
        lines += ["--- CPython stderr:", ref.stderr.rstrip()[-2000:]]
    lines += ["--- kernel stdout:", got.stdout.rstrip()[-3000:]]
    if got.failed or got.stderr.strip():
        lines += ["--- kernel stderr:", got.stderr.rstrip()[-2000:]]
    return "\n".join(lines)


def find(progs, key):
    for p in progs:
        if str(p.index) == key or p.name == key:
            return p
    raise SystemExit(f"no program {key!r}: --list names them")


def xfail_table():
    """test_datamodel.py's XFAIL table (need -> why the kernel fails on it), read from that file's
    text so that running this script needs no pytest."""
    import ast
    with open(os.path.join(HERE, "test_datamodel.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        names = [getattr(t, "id", None) for t in getattr(node, "targets", [])]
        if isinstance(node, ast.Assign) and names == ["XFAIL"]:
            return ast.literal_eval(node.value)
    return {}


def summary(progs, kernel, verbose, jobs):
    from concurrent.futures import ThreadPoolExecutor
    if not os.access(kernel, os.X_OK):
        raise SystemExit(f"{kernel}: no kernel binary (build the minitorch-kernel target)")
    with ThreadPoolExecutor(jobs) as ex:
        results = list(ex.map(lambda p: run_both(p, kernel), progs))
    xfail = xfail_table()
    by_feat, by_need, failing, broken = {}, {}, [], []
    for p, (ref, got) in zip(progs, results):
        ok = same(ref, got)
        if ref.failed:
            broken.append(p.name)
        key = (p.group, p.feature)
        by_feat.setdefault(key, [0, 0])[0 if ok else 1] += 1
        for n in p.needs:
            by_need.setdefault(n, [0, 0])[0 if ok else 1] += 1
        if not ok:
            failing.append((p, ref, got))
    print(f"kernel {kernel}, reference {reference_python()} "
          f"(Python {sys.version.split()[0]}), {len(progs)} programs\n")
    print(f"{'group':<10} {'feature':<18} {'programs':>8} {'pass':>5} {'fail':>5}")
    for (g, f), (ok, bad) in by_feat.items():
        print(f"{g:<10} {f:<18} {ok + bad:>8} {ok:>5} {bad:>5}")
    tot_ok = sum(v[0] for v in by_feat.values())
    print(f"{'total':<29} {len(progs):>8} {tot_ok:>5} {len(progs) - tot_ok:>5}\n")
    print("by need (a program counts under each need it has; xfail: the need is in the XFAIL "
          "table of test_datamodel.py):")
    print(f"{'need':<16} {'programs':>8} {'pass':>5} {'fail':>5}  xfail")
    for n in NEEDS:
        if n in by_need:
            ok, bad = by_need[n]
            print(f"{n:<16} {ok + bad:>8} {ok:>5} {bad:>5}  {'yes' if n in xfail else ''}")
    unexpected = [p.name for p, _, _ in failing if not set(p.needs) & set(xfail)]
    xpass = [p.name for p in progs if set(p.needs) & set(xfail) and
             p.name not in {q.name for q, _, _ in failing}]
    print(f"\nfailing without an xfail need: {len(unexpected)} {' '.join(unexpected)}")
    print(f"passing although a need is listed as xfail: {len(xpass)} {' '.join(xpass)}")
    if broken:
        print(f"PROGRAMS THAT FAIL UNDER CPYTHON (a bug in the generator): {' '.join(broken)}")
    if verbose:
        for p, ref, got in failing:
            print("\n" + "=" * 100)
            print(report(p, ref, got, kernel))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--list", action="store_true", help="list the programs")
    g.add_argument("--dump", metavar="N|NAME", help="print one program")
    g.add_argument("--summary", nargs="?", const="", metavar="KERNEL",
                   help="run all, print pass/fail by feature")
    g.add_argument("--diff", nargs="+", metavar=("N|NAME", "KERNEL"),
                   help="run one program both ways, show both outputs")
    ap.add_argument("-v", "--verbose", action="store_true", help="--summary: show each failure")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="--summary: programs at a time")
    ap.add_argument("--seed", type=int, default=SEED)
    a = ap.parse_args(argv)
    progs = generate(a.seed)
    if a.list:
        for p in progs:
            print(f"{p.index:4} {p.name:<32} {p.group:<10} {p.feature:<18} {' '.join(p.needs)}")
    elif a.dump is not None:
        sys.stdout.write(find(progs, a.dump).text)
    elif a.diff is not None:
        p = find(progs, a.diff[0])
        kernel = a.diff[1] if len(a.diff) > 1 else default_kernel()
        ref, got = run_both(p, kernel)
        print(("SAME\n" if same(ref, got) else "DIFFERENT\n") + report(p, ref, got, kernel))
    else:
        return summary(progs, a.summary or default_kernel(), a.verbose, a.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
