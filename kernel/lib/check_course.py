"""check("0.1") ... check("2.5") and check("4.1") ... check("4.4"): what MiniTorch's tests of
Modules 0 to 2 and 4 check, run on the student's own files (their `%%minitorch_file
operators.py`, `module.py`, `autodiff.py`, `scalar_functions.py`, `scalar.py`, `tensor_data.py`,
`tensor_ops.py`, `tensor_functions.py`, `tensor.py`, `fast_conv.py`, `nn.py`), for the training
tasks 1.5 and 2.5 on their notebook's `Linear` and `Network`, and for Module 4 on the same names
defined in their notebook when they wrote no such file.

The kernel runs this program (lib/check_course.c) afresh for each check, as a module that no
import reaches, and calls run(task, part, ck): ck is a module of natives that only this program
is given. ck.student(file, name) is the student's definition of name in their file (an error
that says what to write when there is none, or when it is the kernel's own), ck.notebook(name)
the class `name` the student's notebook defines (Tasks 1.5 and 2.5); ck.call(f, args)
calls student code and returns (True, value) or (False, error, where), the error the student's
code raised and the line of theirs it came from; ck.draw() is a float in [-100, 100) from
check's own generator, seeded as the report says.

Expected values are computed here from their definitions (Python's arithmetic and math module,
central differences of plain floats), never by the student's code or the kernel's own files.
A student's value counts only as a number of Python's own types (int, float, bool): an object
whose __eq__ or __sub__ says "equal" proves nothing. Each test's cases go from the smallest
input up, and its first failing case is the one reported.
"""
import math

import numpy as np

# MiniTorch's assert_close (|a - b| < 1e-2), relative beyond magnitude 1
TOL = 1e-2
NUMBER = (int, float, bool)


def close(got, want):
    if math.isnan(want):
        return math.isnan(got)
    if math.isinf(want):
        return got == want
    return abs(got - want) < TOL * max(1.0, abs(want))


def show(x):
    if type(x) is float:
        return repr(round(x, 6)) if abs(x) < 1e15 else repr(x)
    if type(x) is list or type(x) is tuple:
        inner = ", ".join(show(v) for v in x)
        return "[" + inner + "]" if type(x) is list else "(" + inner + ")"
    if type(x) in (int, bool, str) or x is None:
        return repr(x)
    return "a " + type(x).__name__


class Failure(Exception):
    """A case that failed: what the report says about it."""


class Report:
    def __init__(self):
        self.lines = []
        self.fails = []
        self.passed = 0
        self.failed = 0
        self.first = ""
        self.last_err = ""

    def result(self, name, ncases, failure):
        cases = "%2d case%s" % (ncases, " " if ncases == 1 else "s")
        if failure is None:
            self.passed += 1
            self.lines.append("  %-37s %s  passed" % (name, cases))
            return
        self.failed += 1
        if not self.first:
            self.first = name
        self.lines.append("  %-37s %s  FAILED" % (name, cases))
        self.fails.append("\nFAILED " + name + ": " + failure)


# ---- calling the student's code -------------------------------------------------------------


def call(ck, f, args, what):
    """f(*args), or Failure naming what raised and where."""
    r = ck.call(f, tuple(args))
    if r[0]:
        return r[1]
    raise Failure("%s raised %s%s" % (what, r[1], r[2]))


def number(v, what):
    if type(v) not in NUMBER:
        raise Failure("%s returned %s, not a number" % (what, show(v)))
    return v


def call_args(name, args):
    return "%s(%s)" % (name, ", ".join(show(a) for a in args))


def cases_of(ck, fixed, nargs, ndraw, make=None, ok=None):
    """The fixed cases, then ndraw drawn ones, smallest (in the sum of |args|) first. With ok,
    only the cases it accepts: a draw it refuses is drawn again, so that a test has as many
    cases at every run (a report's count that changed with the seed would read as a change)."""
    out = [tuple(c) for c in fixed if not ok or ok(tuple(c))]
    drawn = []
    for _ in range(100 * ndraw):
        if len(drawn) == ndraw:
            break
        c = tuple(ck.draw() for _ in range(nargs))
        c = make(c) if make else c
        if not ok or ok(c):
            drawn.append(c)
    drawn.sort(key=lambda c: sum(abs(v) for v in c))
    return out + drawn


def run_cases(r, name, cases, one):
    """one(case) raises Failure for a failing case; the first such is the test's failure."""
    for c in cases:
        try:
            one(c)
        except Failure as e:
            r.result(name, len(cases), str(e))
            return
        except Exception as e:  # what the student's objects did when check read them
            r.result(name, len(cases), "reading your result raised %s: %s"
                     % (type(e).__name__, e))
            return
    r.result(name, len(cases), None)


# ---- Module 0: operators.py -------------------------------------------------------------------


def sigmoid_ref(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


# each function of Task 0.1: its arguments, the value it should give, the cases that matter
# beyond the drawn ones (a draw never gives equal arguments, nor zero), and the draws' domain
def pair_cases(ck):
    fixed = [(0.0, 0.0), (1.0, 1.0), (1.0, 2.0), (2.0, 1.0), (-1.0, 0.0), (0.0, -1.0)]
    for _ in range(4):
        a = ck.draw()
        fixed += [(a - 1.0, a), (a, a - 1.0), (a, a), (a, a + 1.0)]
    return fixed


OPS = [
    # name, nargs, expected, fixed cases, draws made valid
    ("mul", 2, lambda x, y: x * y, [(0.0, 5.0), (2.0, 3.0), (-1.5, 4.0)], None),
    ("id", 1, lambda x: x, [(0.0,), (1.5,), (-3.0,)], None),
    ("add", 2, lambda x, y: x + y, [(0.0, 0.0), (1.0, 2.0), (-1.5, 4.0)], None),
    ("neg", 1, lambda x: -x, [(0.0,), (1.5,), (-3.0,)], None),
    ("lt", 2, lambda x, y: 1.0 if x < y else 0.0, "pairs", None),
    ("eq", 2, lambda x, y: 1.0 if x == y else 0.0, "pairs", None),
    ("max", 2, lambda x, y: x if x > y else y, "pairs", None),
    (
        "is_close",
        2,
        lambda x, y: abs(x - y) < 1e-2,
        [(1.0, 1.0), (1.0, 1.005), (1.0, 1.02), (-2.0, -2.5), (3.0, 2.995)],
        None,
    ),
    ("sigmoid", 1, sigmoid_ref, [(0.0,), (1.0,), (-1.0,), (50.0,), (-50.0,), (-800.0,)], None),
    ("relu", 1, lambda x: x if x > 0 else 0.0, [(0.0,), (2.5,), (-2.5,), (-0.5,), (0.25,)], None),
    ("log", 1, math.log, [(1.0,), (math.e,), (0.5,), (100.0,)], lambda c: (abs(c[0]) + 1e-3,)),
    ("exp", 1, math.exp, [(0.0,), (1.0,), (-1.0,), (10.0,)], None),
    ("inv", 1, lambda x: 1.0 / x, [(1.0,), (2.0,), (-4.0,), (0.5,)], None),
    (
        "log_back",
        2,
        lambda x, d: d / x,
        [(1.0, 1.0), (2.0, 3.0), (0.5, -2.0)],
        lambda c: (abs(c[0]) + 1e-3, c[1]),
    ),
    ("inv_back", 2, lambda x, d: -d / (x * x), [(1.0, 1.0), (2.0, 3.0), (-0.5, 2.0)], None),
    (
        "relu_back",
        2,
        lambda x, d: d if x > 0 else 0.0,
        [(1.0, 5.0), (-1.0, 5.0), (0.0, 5.0), (3.0, -2.0), (2.0, 0.0), (-0.5, 2.0), (0.5, 2.0)],
        None,
    ),
]


def op_test(ck, r, name, nargs, ref, fixed, make):
    f = ck.student("operators", name)
    if fixed == "pairs":
        fixed = pair_cases(ck)

    def one(c):
        got = number(call(ck, f, c, "your " + name), "your " + call_args(name, c))
        want = ref(*c)
        if type(want) is bool:
            ok = bool(got) == want and got in (0, 1)
        else:
            ok = close(got, want)
        if not ok:
            raise Failure(
                "%s: expected %s, got %s" % (call_args(name, c), show(want), show(got))
            )

    run_cases(r, name, cases_of(ck, fixed, nargs, 24, make), one)


def task_0_1(ck, r, part):
    for name, nargs, ref, fixed, make in OPS:
        if part is None or part == name:
            op_test(ck, r, name, nargs, ref, fixed, make)


# Task 0.2: the properties MiniTorch's 0.2 tests assert, of the student's operators
def prop_sigmoid(ck, r):
    f = ck.student("operators", "sigmoid")

    def s(x):
        return number(call(ck, f, (x,), "your sigmoid"), "your sigmoid(%s)" % show(x))

    def one(c):
        a = c[0]
        v = s(a)
        if not 0.0 <= v <= 1.0:
            raise Failure("sigmoid(%s) = %s, outside [0, 1]" % (show(a), show(v)))
        if not close(1.0 - v, s(-a)):
            raise Failure(
                "1 - sigmoid(%s) = %s but sigmoid(%s) = %s"
                % (show(a), show(1.0 - v), show(-a), show(s(-a)))
            )
        if not close(s(0.0), 0.5):
            raise Failure("sigmoid(0.0) = %s, not 0.5" % show(s(0.0)))
        if abs(a) < 20 and not s(a) < s(a + 0.5):
            raise Failure(
                "sigmoid is not increasing: sigmoid(%s) = %s, sigmoid(%s) = %s"
                % (show(a), show(v), show(a + 0.5), show(s(a + 0.5)))
            )

    run_cases(r, "sigmoid", cases_of(ck, [(0.0,), (1.0,), (-1.0,)], 1, 24), one)


def prop_transitive(ck, r):
    lt = ck.student("operators", "lt")

    def less(x, y):
        return number(call(ck, lt, (x, y), "your lt"), "your lt(%s, %s)" % (show(x), show(y)))

    def one(c):
        a, b, d = sorted(c)
        if less(a, b) and less(b, d) and not less(a, d):
            raise Failure(
                "lt(%s, %s) and lt(%s, %s) but not lt(%s, %s)"
                % (show(a), show(b), show(b), show(d), show(a), show(d))
            )
        if less(b, a) or less(d, b):
            raise Failure("lt says %s < %s, or %s < %s" % (show(b), show(a), show(d), show(b)))

    run_cases(r, "transitive", cases_of(ck, [(1.0, 2.0, 3.0)], 3, 24), one)


def prop_symmetric(ck, r):
    mul = ck.student("operators", "mul")

    def one(c):
        x, y = c
        p = number(call(ck, mul, (x, y), "your mul"), "your mul")
        q = number(call(ck, mul, (y, x), "your mul"), "your mul")
        if p != q:
            raise Failure(
                "mul(%s, %s) = %s but mul(%s, %s) = %s"
                % (show(x), show(y), show(p), show(y), show(x), show(q))
            )

    run_cases(r, "symmetric", cases_of(ck, [(2.0, 3.0)], 2, 24), one)


def prop_distribute(ck, r):
    mul = ck.student("operators", "mul")
    add = ck.student("operators", "add")

    def one(c):
        x, y, z = c
        left = number(call(ck, mul, (z, call(ck, add, (x, y), "your add")), "your mul"), "mul")
        zx = call(ck, mul, (z, x), "your mul")
        zy = call(ck, mul, (z, y), "your mul")
        right = number(call(ck, add, (zx, zy), "your add"), "your add")
        if not close(left, right):
            raise Failure(
                "mul(z, add(x, y)) = %s but add(mul(z, x), mul(z, y)) = %s for x = %s, y = %s, "
                "z = %s" % (show(left), show(right), show(x), show(y), show(z))
            )

    run_cases(r, "distribute", cases_of(ck, [(1.0, 2.0, 3.0)], 3, 24), one)


PROPS = [
    ("sigmoid", prop_sigmoid),
    ("transitive", prop_transitive),
    ("symmetric", prop_symmetric),
    ("distribute", prop_distribute),
]


def task_0_2(ck, r, part):
    for name, test in PROPS:
        if part is None or part == name:
            test(ck, r)


# Task 0.3: higher-order functions, given functions of check's own
def as_list(v, what):
    if type(v) is list or type(v) is tuple:
        return list(v)
    try:
        return list(v)
    except Exception as e:
        raise Failure("%s returned %s, which is not a list (%s)" % (what, show(v), e))


def numbers(vs, what):
    for v in vs:
        number(v, what)
    return vs


def list_cases(ck, lengths):
    out = []
    for n in lengths:
        out.append([ck.draw() for _ in range(n)])
    return out


def hof_map(ck, r):
    m = ck.student("operators", "map")
    fns = [("lambda x: 2 * x + 1", lambda x: 2 * x + 1), ("lambda x: -x", lambda x: -x)]

    def one(c):
        text, fn = c[0]
        ls = c[1]
        g = call(ck, m, (fn,), "your map(%s)" % text)
        got = numbers(as_list(call(ck, g, (list(ls),), "map(fn)"), "map(fn)(ls)"), "map")
        want = [fn(x) for x in ls]
        if len(got) != len(want) or not all(close(a, b) for a, b in zip(got, want)):
            raise Failure(
                "map(%s)(%s): expected %s, got %s" % (text, show(ls), show(want), show(got))
            )

    cases = [(fn, ls) for ls in list_cases(ck, [0, 1, 2, 5, 9]) for fn in fns]
    run_cases(r, "map", cases, one)


def hof_zip(ck, r):
    z = ck.student("operators", "zipWith")
    fns = [("lambda x, y: x - y", lambda x, y: x - y), ("lambda x, y: x * y + 1", lambda x, y: x * y + 1)]

    def one(c):
        text, fn = c[0]
        a, b = c[1], c[2]
        g = call(ck, z, (fn,), "your zipWith(%s)" % text)
        got = as_list(call(ck, g, (list(a), list(b)), "zipWith(fn)"), "zipWith(fn)(a, b)")
        numbers(got, "zipWith")
        want = [fn(x, y) for x, y in zip(a, b)]
        if len(got) != len(want) or not all(close(p, q) for p, q in zip(got, want)):
            raise Failure(
                "zipWith(%s)(%s, %s): expected %s, got %s"
                % (text, show(a), show(b), show(want), show(got))
            )

    cases = []
    for n in [0, 1, 2, 5, 9]:
        a, b = list_cases(ck, [n, n])
        cases += [(fn, a, b) for fn in fns]
    run_cases(r, "zipWith", cases, one)


def hof_reduce(ck, r):
    red = ck.student("operators", "reduce")
    fns = [
        ("lambda x, y: x + y", lambda x, y: x + y, 0.0),
        ("lambda x, y: x * y", lambda x, y: x * y, 1.0),
        ("lambda x, y: x if x > y else y", lambda x, y: x if x > y else y, -1e9),
    ]

    def one(c):
        text, fn, start = c[0]
        ls = c[1]
        g = call(ck, red, (fn, start), "your reduce(%s, %s)" % (text, show(start)))
        got = number(call(ck, g, (list(ls),), "reduce(fn, start)"), "reduce(fn, start)(ls)")
        want = start
        for x in ls:
            want = fn(want, x)
        # the functions commute: the course's docstring folds fn(x_n, ... fn(x_1, start)), and
        # fn(start, x_1) first is as right for these
        if not close(got, want):
            raise Failure(
                "reduce(%s, %s)(%s): expected %s, got %s"
                % (text, show(start), show(ls), show(want), show(got))
            )

    cases = []
    for ls in list_cases(ck, [0, 1, 2, 4]):
        cases += [(fn, [v / 10.0 for v in ls]) for fn in fns]
    run_cases(r, "reduce", cases, one)


def list_fn(ck, r, name, nlists, ref):
    f = ck.student("operators", name)

    def one(ls):
        args = [list(x) for x in ls]
        got = call(ck, f, args, "your " + name)
        want = ref(*ls)
        if type(want) is list:
            got = numbers(as_list(got, "your " + name), "your " + name)
            ok = len(got) == len(want) and all(close(a, b) for a, b in zip(got, want))
        else:
            got = number(got, "your " + call_args(name, ls))
            ok = close(got, want)
        if not ok:
            raise Failure("%s: expected %s, got %s" % (call_args(name, ls), show(want), show(got)))

    cases = []
    for n in [0, 1, 2, 3, 5, 8]:
        cases.append([[v / 10.0 for v in ck_list] for ck_list in list_cases(ck, [n] * nlists)])
    run_cases(r, name, cases, one)


def sum_ref(ls):
    total = 0.0
    for x in ls:
        total += x
    return total


def prod_ref(ls):
    p = 1.0
    for x in ls:
        p *= x
    return p


def task_0_3(ck, r, part):
    tests = [
        ("map", lambda: hof_map(ck, r)),
        ("zipWith", lambda: hof_zip(ck, r)),
        ("reduce", lambda: hof_reduce(ck, r)),
        ("negList", lambda: list_fn(ck, r, "negList", 1, lambda ls: [-x for x in ls])),
        (
            "addLists",
            lambda: list_fn(ck, r, "addLists", 2, lambda a, b: [x + y for x, y in zip(a, b)]),
        ),
        ("sum", lambda: list_fn(ck, r, "sum", 1, sum_ref)),
        ("prod", lambda: list_fn(ck, r, "prod", 1, prod_ref)),
    ]
    for name, test in tests:
        if part is None or part == name:
            test()


# Task 0.4: the Module class, through modules built on the student's own
def module_tree(ck):
    """The student's Module and Parameter, and check's modules built on them: MiniTorch's
    test_module.py's shapes (a module with children, grandchildren and extra parameters)."""
    Module = ck.student("module", "Module")
    Parameter = ck.student("module", "Parameter")

    class Leaf(Module):
        def __init__(self, val):
            super().__init__()
            self.p3 = Parameter(val)

    class Middle(Module):
        def __init__(self, extra, val):
            super().__init__()
            self.parameter_a = Parameter(val)
            self.parameter_b = Parameter(val + 1)
            self.non_parameter = 10
            self.c = Leaf(val + 2)
            for i in range(extra):
                self.add_parameter("extra_parameter_" + str(i), i)

    class Top(Module):
        def __init__(self, size_a, size_b, val):
            super().__init__()
            self.p1 = Parameter(val)
            self.non_param = 10
            self.a = Middle(size_a, 100.0)
            self.b = Middle(size_b, 200.0)

    return Module, Parameter, Top, Middle, Leaf


def expected_named(size_a, size_b, val):
    names = {"p1": val}
    for prefix, size, base in [("a.", size_a, 100.0), ("b.", size_b, 200.0)]:
        names[prefix + "parameter_a"] = base
        names[prefix + "parameter_b"] = base + 1
        names[prefix + "c.p3"] = base + 2
        for i in range(size):
            names[prefix + "extra_parameter_" + str(i)] = i
    return names


def build(ck, Top, c):
    return call(ck, Top, c, "making a module (Module.__init__, __setattr__ or add_parameter)")


def module_cases(ck):
    cases = [(0, 0, 5.0), (1, 0, 5.0), (0, 2, -3.5), (3, 1, 7.0)]
    for _ in range(4):
        cases.append((int(abs(ck.draw())) % 20, int(abs(ck.draw())) % 20, ck.draw()))
    return cases


LABELS = ["the module", "its child a", "its child b", "a's child c", "b's child c"]


def mod_modes(ck, r, method):
    """train() (eval()) sets training to True (False) on the module and all below it: every
    module starts the other way round, so that the method alone is tested."""
    _, _, Top, _, _ = module_tree(ck)
    flag = method == "train"

    def one(c):
        m = build(ck, Top, c)
        everything = [m, m.a, m.b, m.a.c, m.b.c]
        for sub in everything:
            sub.training = not flag
        call(ck, getattr(m, method), (), "your " + method + "()")
        for label, sub in zip(LABELS, everything):
            t = sub.training
            if type(t) not in NUMBER or bool(t) != flag:
                raise Failure(
                    "after %s(), %s has training = %s, expected %s (a module with two "
                    "children, each with one of its own, all training = %s before)"
                    % (method, label, show(t), show(flag), show(not flag))
                )

    run_cases(r, method, module_cases(ck)[:4], one)


def mod_named(ck, r):
    _, Parameter, Top, _, _ = module_tree(ck)

    def one(c):
        m = build(ck, Top, c)
        got = as_list(call(ck, m.named_parameters, (), "your named_parameters()"), "it")
        want = expected_named(*c)
        names = []
        for item in got:
            if type(item) is not tuple or len(item) != 2 or type(item[0]) is not str:
                raise Failure(
                    "named_parameters() gave %s: expected (name, Parameter) pairs" % show(item)
                )
            names.append(item[0])
            if not isinstance(item[1], Parameter):
                raise Failure("named_parameters() gave %s for %r" % (show(item[1]), item[0]))
        if sorted(names) != sorted(want):
            missing = sorted(set(want) - set(names))
            extra = sorted(set(names) - set(want))
            dup = len(names) != len(set(names))
            raise Failure(
                "for a module with parameter p1, children a and b (their parameters parameter_a,"
                " parameter_b, extra_parameter_0 ... and a child c with p3): %s%s%s"
                % (
                    "missing " + ", ".join(missing[:6]) + "; " if missing else "",
                    "unexpected " + ", ".join(extra[:6]) + "; " if extra else "",
                    "names given twice" if dup else "",
                )
            )
        for n, p in got:
            if not close(number(p.value, "a Parameter's value"), want[n]):
                raise Failure(
                    "named_parameters()'s %r has value %s, expected %s"
                    % (n, show(p.value), show(want[n]))
                )

    run_cases(r, "named_parameters", module_cases(ck), one)


def mod_parameters(ck, r):
    _, Parameter, Top, _, _ = module_tree(ck)

    def one(c):
        m = build(ck, Top, c)
        got = as_list(call(ck, m.parameters, (), "your parameters()"), "parameters()")
        want = expected_named(*c)
        if len(got) != len(want) or not all(isinstance(p, Parameter) for p in got):
            raise Failure(
                "a module with %d parameters (p1; children with 3 + %d and 3 + %d): "
                "parameters() gave %d values" % (len(want), c[0], c[1], len(got))
            )
        ids = set(id(p) for p in got)
        own = [m.p1, m.a.parameter_a, m.b.parameter_b, m.a.c.p3, m.b.c.p3]
        for p in own:
            if id(p) not in ids:
                raise Failure("parameters() misses a parameter of value %s" % show(p.value))

    run_cases(r, "parameters", module_cases(ck), one)


def mod_modules(ck, r):
    _, _, Top, _, _ = module_tree(ck)

    def one(c):
        m = build(ck, Top, c)
        got = as_list(call(ck, m.modules, (), "your modules()"), "modules()")
        if len(got) != 2 or set(id(x) for x in got) != set([id(m.a), id(m.b)]):
            raise Failure(
                "modules() of a module with the two children a and b gave %d values" % len(got)
            )

    run_cases(r, "modules", module_cases(ck)[:4], one)


def task_0_4(ck, r, part):
    tests = [
        ("modules", lambda: mod_modules(ck, r)),
        ("train", lambda: mod_modes(ck, r, "train")),
        ("eval", lambda: mod_modes(ck, r, "eval")),
        ("named_parameters", lambda: mod_named(ck, r)),
        ("parameters", lambda: mod_parameters(ck, r)),
    ]
    for name, test in tests:
        if part is None or part == name:
            test()


# ---- Module 1: autodiff.py, scalar_functions.py, scalar.py ------------------------------------


def task_1_1(ck, r, part):
    cd = ck.student("autodiff", "central_difference")
    # each function, its arity, its derivatives, and whether its central difference is exact
    # (at most quadratic in each argument): those are also taken with a wide epsilon of check's
    # own, at which a one-sided difference is visibly off
    fns = [
        ("x * x", 1, lambda x: x * x, lambda x: [2 * x], True),
        ("x * y + y", 2, lambda x, y: x * y + y, lambda x, y: [y, x + 1], True),
        ("exp(x / 50)", 1, lambda x: math.exp(x / 50), lambda x: [math.exp(x / 50) / 50], False),
        ("x * y * z", 3, lambda x, y, z: x * y * z, lambda x, y, z: [y * z, x * z, x * y], True),
        ("x", 1, lambda x: x, lambda x: [1.0], True),
    ]

    def one(c):
        text, n, f, grad, exact = c[0]
        vals = c[1][:n]
        want = grad(*vals)
        for arg in range(n):
            for eps in [None, 0.5] if exact else [None]:
                if eps is None:
                    got = call(ck, lambda: cd(f, *vals, arg=arg), (), "your central_difference")
                else:
                    got = call(ck, lambda: cd(f, *vals, arg=arg, epsilon=eps), (),
                               "your central_difference")
                got = number(got, "your central_difference")
                if not close(got, want[arg]):
                    raise Failure(
                        "central_difference(f, %s, arg=%d%s) for f = lambda: %s: expected %s, "
                        "got %s" % (", ".join(show(v) for v in vals), arg,
                                    "" if eps is None else ", epsilon=%s" % eps, text,
                                    show(want[arg]), show(got)))

    cases = []
    for vals in cases_of(ck, [(5.0, 10.0, 2.0), (2.0, -3.0, 0.5)], 3, 8):
        cases += [(fn, [v / 10.0 for v in vals]) for fn in fns]
    run_cases(r, "central_difference", cases, one)


# MiniTorch's MathTest functions on plain floats (the expected values) and the Scalar
# expressions they are written as (what the student's Scalar computes): name, arity, the
# ScalarFunctions they go through, float form, Scalar form
MATH = [
    ("neg", 1, ["neg"], lambda a: -a, lambda a: -a),
    ("addConstant", 1, ["add"], lambda a: 5 + a, lambda a: 5 + a),
    ("square", 1, ["mul"], lambda a: a * a, lambda a: a * a),
    ("cube", 1, ["mul"], lambda a: a * a * a, lambda a: a * a * a),
    ("subConstant", 1, ["neg", "add"], lambda a: a - 5, lambda a: a - 5),
    ("multConstant", 1, ["mul"], lambda a: 5 * a, lambda a: 5 * a),
    ("div", 1, ["inv", "mul"], lambda a: a / 5, lambda a: a / 5),
    ("inv", 1, ["inv"], lambda a: 1.0 / (a + 3.5), lambda a: 1.0 / (a + 3.5)),
    ("sig", 1, ["sigmoid"], sigmoid_ref, lambda a: a.sigmoid()),
    ("log", 1, ["log"], lambda a: math.log(a + 100000), lambda a: (a + 100000).log()),
    ("relu", 1, ["relu"], lambda a: max(a + 5.5, 0.0), lambda a: (a + 5.5).relu()),
    ("exp", 1, ["exp"], lambda a: math.exp(a - 200), lambda a: (a - 200).exp()),
    (
        "explog",
        1,
        ["log", "exp"],
        lambda a: math.log(a + 100000) + math.exp(a - 200),
        lambda a: (a + 100000).log() + (a - 200).exp(),
    ),
    ("add2", 2, ["add"], lambda a, b: a + b, lambda a, b: a + b),
    ("mul2", 2, ["mul"], lambda a, b: a * b, lambda a, b: a * b),
    ("div2", 2, ["inv", "mul"], lambda a, b: a / (b + 5.5), lambda a, b: a / (b + 5.5)),
    ("gt2", 2, ["lt"], lambda a, b: 1.0 if b < a + 1.2 else 0.0, lambda a, b: a + 1.2 > b),
    ("lt2", 2, ["lt"], lambda a, b: 1.0 if a + 1.2 < b else 0.0, lambda a, b: a + 1.2 < b),
    ("eq2", 2, ["eq"], lambda a, b: 1.0 if a == b + 5.5 else 0.0, lambda a, b: a == (b + 5.5)),
    (
        "complex",
        1,
        ["relu", "sigmoid", "log", "mul", "add", "inv"],
        lambda a: math.log(sigmoid_ref(max(max(a * 10 + 7, 0.0) * 6 + 5, 0.0) * 10)) / 50,
        lambda a: (((a * 10 + 7).relu() * 6 + 5).relu() * 10).sigmoid().log() / 50,
    ),
]

# the ScalarFunctions the student writes in Tasks 1.2 (forward) and 1.4 (backward), a part
# each (Add and Log are given whole): a part tests its function alone, so that a mistake in one
# function costs that part only
FUNCTIONS = ["mul", "inv", "neg", "sigmoid", "relu", "exp", "lt", "eq"]


# each function of Task 1.2 alone: its class, arity, and the forms that run its forward (its
# apply, and the Scalar methods that are it), each with its expected value
FORWARD = {
    "mul": ("Mul", 2, [("Mul.apply(a, b)", lambda a, b: a * b, lambda F, a, b: F.apply(a, b)),
                       ("a * b", lambda a, b: a * b, lambda F, a, b: a * b)]),
    "inv": ("Inv", 1, [("Inv.apply(a)", lambda a: 1.0 / a, lambda F, a: F.apply(a))]),
    "neg": ("Neg", 1, [("Neg.apply(a)", lambda a: -a, lambda F, a: F.apply(a)),
                       ("-a", lambda a: -a, lambda F, a: -a)]),
    "sigmoid": ("Sigmoid", 1, [("Sigmoid.apply(a)", sigmoid_ref, lambda F, a: F.apply(a)),
                               ("a.sigmoid()", sigmoid_ref, lambda F, a: a.sigmoid())]),
    "relu": ("ReLU", 1, [("ReLU.apply(a)", lambda a: max(a, 0.0), lambda F, a: F.apply(a)),
                         ("a.relu()", lambda a: max(a, 0.0), lambda F, a: a.relu())]),
    "exp": ("Exp", 1, [("Exp.apply(a)", math.exp, lambda F, a: F.apply(a)),
                       ("a.exp()", math.exp, lambda F, a: a.exp())]),
    "lt": ("LT", 2, [("LT.apply(a, b)", lambda a, b: float(a < b), lambda F, a, b: F.apply(a, b)),
                     ("a < b", lambda a, b: float(a < b), lambda F, a, b: a < b),
                     ("a > b", lambda a, b: float(a > b), lambda F, a, b: a > b)]),
    "eq": ("EQ", 2, [("EQ.apply(a, b)", lambda a, b: float(a == b), lambda F, a, b: F.apply(a, b)),
                     ("a == b", lambda a, b: float(a == b), lambda F, a, b: a == b)]),
}


def forward_cases(ck, part, n):
    if n == 2:
        return [tuple(v / 10 for v in c) for c in pair_cases(ck)]
    cases = cases_of(ck, [(0.0,), (1.0,), (-0.5,), (2.5,)], 1, 14,
                     ok=lambda c: part != "inv" or abs(c[0]) > 0.05)
    if part == "exp":
        return [(c[0] / 10,) for c in cases]
    return cases


def forward_test(ck, r, part):
    cls_name, n, forms = FORWARD[part]
    Fn = ck.student("scalar_functions", cls_name)
    Scalar = ck.student("scalar", "Scalar")

    def one(c):
        for text, ref, expr in forms:
            xs = [call(ck, Scalar, (v,), "your Scalar(%s)" % show(v)) for v in c]
            where = "%s with %s" % (text, ", ".join(
                "%s = Scalar(%s)" % ("ab"[i], show(c[i])) for i in range(n)))
            out = call(ck, lambda: expr(Fn, *xs), (), where)
            got = scalar_data(ck, out, where)
            if not close(got, ref(*c)):
                raise Failure("%s: expected .data %s, got %s" % (where, show(ref(*c)), show(got)))

    run_cases(r, "forward[%s]" % cls_name, forward_cases(ck, part, n), one)


def scalar_cases(ck, nargs, ok=None):
    fixed = [(0.0, 0.0)[:nargs], (1.0, 2.0)[:nargs], (-2.5, 0.5)[:nargs]]
    if nargs == 2:
        fixed.append((1.0, -4.5))  # eq2's equal case: a == b + 5.5
    return cases_of(ck, fixed, nargs, 12, ok=ok)


def scalar_data(ck, v, what):
    if type(v) in NUMBER:
        raise Failure("%s gave the number %s, not a Scalar" % (what, show(v)))
    try:
        d = v.data
    except Exception as e:
        raise Failure("%s gave %s, which has no .data (%s)" % (what, show(v), e))
    return number(d, what + ".data")


def scalar_expr(ck, name, fn, args):
    """fn applied to Scalars of args, the student's code running it"""
    Scalar = ck.student("scalar", "Scalar")
    xs = [call(ck, Scalar, (a,), "your Scalar(%s)" % show(a)) for a in args]
    return xs, call(ck, fn, tuple(xs), "%s on your Scalars" % call_args(name, args))


def task_1_2(ck, r, part):
    """Each function's forward alone (a part each), then, for the whole task, MiniTorch's
    MathTest expressions of Scalars, which combine them"""
    ck.student("scalar_functions", "ScalarFunction")
    for fn in FUNCTIONS:
        if part is None or part == fn:
            forward_test(ck, r, fn)
    for name, n, fns, ref, expr in MATH:
        if part is not None:
            continue

        def one(c, name=name, ref=ref, expr=expr):
            want = ref(*c)
            xs, out = scalar_expr(ck, name, expr, c)
            got = scalar_data(ck, out, call_args(name, c))
            if not close(got, want):
                raise Failure(
                    "%s of Scalars: expected .data %s, got %s (MiniTorch's MathTest %s)"
                    % (call_args(name, c), show(want), show(got), name)
                )

        run_cases(r, "one_args[%s]" % name if n == 1 else "two_args[%s]" % name,
                  scalar_cases(ck, n), one)


# Task 1.3: chain_rule, with MiniTorch's two test functions over the student's ScalarFunction
def test_functions(ck):
    ScalarFunction = ck.student("scalar_functions", "ScalarFunction")

    class Function1(ScalarFunction):
        @staticmethod
        def forward(ctx, x, y):
            return x + y + 10

        @staticmethod
        def backward(ctx, d_output):
            return d_output, d_output

    class Function2(ScalarFunction):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y + x

        @staticmethod
        def backward(ctx, d_output):
            x, y = ctx.saved_values
            return d_output * (y + 1), d_output * x

    return Function1, Function2


def square_function(ck):
    """a function of one input, whose backward returns a float, not a tuple (as MiniTorch's
    one-input functions do: ScalarFunction._backward makes it one)"""
    ScalarFunction = ck.student("scalar_functions", "ScalarFunction")

    class Square(ScalarFunction):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, d_output):
            (x,) = ctx.saved_values
            return 2.0 * x * d_output

    return Square


def pairs_of(ck, back, what):
    got = as_list(back, what)
    for item in got:
        t = as_list(item, what) if type(item) is not tuple else item
        if len(t) != 2:
            raise Failure("%s gave %s: expected (variable, derivative) pairs" % (what, show(item)))
    return [tuple(as_list(x, what)) for x in got]


def task_1_3(ck, r, part):
    """MiniTorch's test_chain_rule3 and 4: a constant first argument still gets its pair (apply
    wraps it as a Scalar), and each pair's derivative is d_output times the partial."""
    Scalar = ck.student("scalar", "Scalar")
    Function1, Function2 = test_functions(ck)
    Square = square_function(ck)

    def one(c):
        kind, a, b, d = c
        y = call(ck, Scalar, (b,), "your Scalar")
        if kind == "one":
            out = call(ck, Square.apply, (y,), "Square.apply(Scalar)")
            text = "f(x) = x * x at Scalar x = %s" % show(b)
            back = call(ck, out.chain_rule, (d,), "your chain_rule(%s)" % show(d))
            got = pairs_of(ck, back, "chain_rule(d_output)")
            if len(got) != 1 or got[0][0] is not y:
                raise Failure("%s, chain_rule(d_output=%s): expected 1 pair (x, derivative), got "
                              "%d" % (text, show(d), len(got)))
            if not close(number(got[0][1], "a derivative chain_rule gave"), 2 * b * d):
                raise Failure("%s, chain_rule(d_output=%s): expected x's derivative %s, got %s"
                              % (text, show(d), show(2 * b * d), show(got[0][1])))
            return
        if kind == "const":
            out = call(ck, Function2.apply, (a, y), "Function2.apply(%s, Scalar)" % show(a))
            text = "f(x, y) = x * y + x at x = %s (a number), y = Scalar(%s)" % (show(a), show(b))
            inputs = [None, y]
        else:
            x = call(ck, Scalar, (a,), "your Scalar")
            out = call(ck, Function2.apply, (x, y), "Function2.apply(Scalar, Scalar)")
            text = "f(x, y) = x * y + x at Scalars x = %s, y = %s" % (show(a), show(b))
            inputs = [x, y]
        want = [d * (b + 1), d * a]
        back = call(ck, out.chain_rule, (d,), "your chain_rule(%s)" % show(d))
        got = pairs_of(ck, back, "chain_rule(d_output)")
        if len(got) != 2:
            raise Failure(
                "%s, chain_rule(d_output=%s): expected 2 (variable, derivative) pairs, one per "
                "input, got %d" % (text, show(d), len(got))
            )
        for i in range(2):
            gv, gd = got[i]
            if inputs[i] is not None and gv is not inputs[i]:
                raise Failure("%s: chain_rule's pairs are not in the inputs' order" % text)
            if not close(number(gd, "a derivative chain_rule gave"), want[i]):
                raise Failure(
                    "%s, chain_rule(d_output=%s): expected %s's derivative %s, got %s"
                    % (text, show(d), "xy"[i], show(want[i]), show(gd))
                )

    cases = [("var", 5.0, 10.0, 5.0), ("const", 10.0, 5.0, 5.0), ("one", 0.0, 3.0, 5.0)]
    for v in cases_of(ck, [], 3, 10):
        kind = "var" if v[2] > 30 else "const" if v[2] > -30 else "one"
        cases.append((kind, v[0] / 10, v[1] / 10, v[2] / 10))
    run_cases(r, "chain_rule", cases, one)


# Task 1.4: backpropagation, and each function's derivative
def task_1_4(ck, r, part):
    if part is None or part == "topological_sort":
        topo(ck, r)
    if part is None or part == "backpropagate":
        backprop(ck, r)
    for fn in FUNCTIONS:
        if part is None or part == fn:
            backward_test(ck, r, fn)
    if part in FUNCTIONS:
        return
    for name, n, fns, ref, expr in MATH:
        if part is not None:
            continue

        def one(c, name=name, n=n, ref=ref, expr=expr):
            xs, out = scalar_expr(ck, name, expr, c)
            call(ck, out.backward, (), "%s.backward()" % call_args(name, c))
            for i in range(n):
                h = 1e-6 * max(1.0, abs(c[i]))
                up = list(c)
                down = list(c)
                up[i] += h
                down[i] -= h
                want = (ref(*up) - ref(*down)) / (2 * h)
                got = xs[i].derivative
                if got is None:
                    raise Failure(
                        "after %s.backward(), argument %d's .derivative is None"
                        % (call_args(name, c), i + 1)
                    )
                got = number(got, "a Scalar's .derivative")
                if not close(got, want):
                    raise Failure(
                        "d/d%s of %s: expected %s (central difference), got %s"
                        % ("ab"[i], call_args(name, c), show(want), show(got))
                    )

        cases = scalar_cases(ck, n, ok=lambda cc: not kink(name, cc))
        run_cases(r, "derivative[%s]" % name, cases, one)


# each ScalarFunction's derivatives, as functions of its inputs and d_output
BACKWARD = {
    "mul": ("Mul", 2, lambda a, b, d: (d * b, d * a)),
    "inv": ("Inv", 1, lambda a, d: (-d / (a * a),)),
    "neg": ("Neg", 1, lambda a, d: (-d,)),
    "sigmoid": ("Sigmoid", 1, lambda a, d: (d * sigmoid_ref(a) * (1 - sigmoid_ref(a)),)),
    "relu": ("ReLU", 1, lambda a, d: (d if a > 0 else 0.0,)),
    "exp": ("Exp", 1, lambda a, d: (d * math.exp(a / 10),)),
    "lt": ("LT", 2, lambda a, b, d: (0.0, 0.0)),
    "eq": ("EQ", 2, lambda a, b, d: (0.0, 0.0)),
}


def backward_test(ck, r, part):
    """One function's backward alone: its forward on a fresh Context, then backward(ctx, d),
    against the derivatives written out (inputs scaled into exp's range)"""
    cls_name, n, deriv = BACKWARD[part]
    Fn = ck.student("scalar_functions", cls_name)
    Context = ck.student("autodiff", "Context")

    def one(c):
        args = [v / 10 if part == "exp" else v for v in c[:n]]
        d = c[n]
        ctx = call(ck, Context, (), "your Context()")
        call(ck, Fn.forward, tuple([ctx] + args), "your %s.forward" % cls_name)
        got = call(ck, Fn.backward, (ctx, d), "your %s.backward" % cls_name)
        got = list(got) if type(got) in (tuple, list) else [got]
        want = deriv(*(c[:n] + (d,)))
        text = "%s.backward(ctx, %s) after %s.forward(ctx, %s)" % (
            cls_name, show(d), cls_name, ", ".join(show(a) for a in args))
        if len(got) != n:
            raise Failure("%s gave %d derivative%s, expected %d" % (
                text, len(got), "" if len(got) == 1 else "s", n))
        for i in range(n):
            if not close(number(got[i], "your " + cls_name + ".backward"), want[i]):
                raise Failure("%s: expected %s, got %s" % (text, show(want), show(tuple(got))))

    cases = cases_of(ck, [(1.0, 2.0, 3.0), (-2.0, 0.5, 1.0)], 3, 14,
                     ok=lambda cc: not (part == "inv" and abs(cc[0]) < 0.1)
                     and not (part == "relu" and cc[0] == 0))
    run_cases(r, "backward[%s]" % cls_name, cases, one)


def kink(name, c):
    """A point where the function has no derivative (or a step) near c: central differences
    say nothing there, as MiniTorch's derivative_check cannot."""
    if name == "relu":
        return abs(c[0] + 5.5) < 1e-3
    if name == "complex":
        return abs(c[0] * 10 + 7) < 1e-2
    if name in ("gt2", "lt2"):
        return abs(c[0] + 1.2 - c[1]) < 1e-3
    if name == "eq2":
        return abs(c[0] - c[1] - 5.5) < 1e-3
    return False


def graph(ck, Scalar, Function1, shape, a):
    """MiniTorch's test_backprop graphs: the leaf and the output"""
    v = call(ck, Scalar, (a,), "your Scalar")
    apply = Function1.apply
    if shape == 1:
        return v, call(ck, apply, (0, v), "Function1.apply")
    if shape == 2:
        v2 = call(ck, apply, (0, v), "Function1.apply")
        return v, call(ck, apply, (0, v2), "Function1.apply")
    if shape == 3:
        v2 = call(ck, apply, (0, v), "Function1.apply")
        v3 = call(ck, apply, (0, v), "Function1.apply")
        return v, call(ck, apply, (v2, v3), "Function1.apply")
    v1 = call(ck, apply, (0, v), "Function1.apply")
    v2 = call(ck, apply, (0, v1), "Function1.apply")
    v3 = call(ck, apply, (0, v1), "Function1.apply")
    return v, call(ck, apply, (v2, v3), "Function1.apply")


GRAPHS = {
    1: "F1(0, v)",
    2: "F1(0, F1(0, v))",
    3: "F1(F1(0, v), F1(0, v))",
    4: "F1(F1(0, w), F1(0, w)) with w = F1(0, v)",
}


def backprop(ck, r):
    Scalar = ck.student("scalar", "Scalar")
    bp = ck.student("autodiff", "backpropagate")
    Function1, _ = test_functions(ck)

    def one(c):
        shape, d = c
        v, out = graph(ck, Scalar, Function1, shape, 0.0)
        call(ck, bp, (out, d), "your backpropagate")
        want = d * (1 if shape < 3 else 2)
        got = v.derivative
        if got is None or type(got) not in NUMBER or not close(got, want):
            raise Failure(
                "backpropagate(out, %s) for out = %s: expected the leaf v's derivative %s, "
                "got %s (MiniTorch's test_backprop%d)" % (show(d), GRAPHS[shape], show(want),
                                                           show(got), shape)
            )

    cases = [(s, 5.0) for s in [1, 2, 3, 4]]
    cases += [(s, round(ck.draw(), 3)) for s in [1, 2, 3, 4]]
    run_cases(r, "backpropagate", cases, one)


def topo(ck, r):
    Scalar = ck.student("scalar", "Scalar")
    ts = ck.student("autodiff", "topological_sort")
    Function1, _ = test_functions(ck)

    def one(c):
        v, out = graph(ck, Scalar, Function1, c, 0.0)
        order = as_list(call(ck, ts, (out,), "your topological_sort"), "topological_sort")
        ids = [x.unique_id for x in order]
        if len(set(ids)) != len(ids):
            raise Failure("topological_sort(%s) lists a variable twice" % GRAPHS[c])
        if not order or order[0] is not out:
            raise Failure("topological_sort(%s) does not start with the output" % GRAPHS[c])
        if v.unique_id not in ids:
            raise Failure("topological_sort(%s) leaves out the leaf v" % GRAPHS[c])
        where = {}
        for i in range(len(ids)):
            where[ids[i]] = i
        for x in order:
            if x.is_leaf():
                continue
            for p in x.parents:
                if p.is_constant():
                    continue
                if p.unique_id not in where:
                    raise Failure("topological_sort(%s) leaves a variable out" % GRAPHS[c])
                if where[p.unique_id] < where[x.unique_id]:
                    raise Failure(
                        "topological_sort(%s): a variable comes after one it was computed from"
                        % GRAPHS[c]
                    )

    run_cases(r, "topological_sort", [1, 2, 3, 4], one)


# ---- Module 2: tensor_data.py --------------------------------------------------------------------


def size_of(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def dim_draw(ck, lo, hi):
    """an int in [lo, hi] from check's draws"""
    return lo + int(abs(ck.draw()) * 1000) % (hi - lo + 1)


def shape_cases(ck, n):
    """n shapes of 1 to 4 dims of 1 to 4, smallest first, after the fixed ones"""
    shapes = [(1,), (3,), (2, 3), (3, 1, 2)]
    for _ in range(n):
        shapes.append(tuple(dim_draw(ck, 1, 4) for _ in range(dim_draw(ck, 1, 4))))
    shapes.sort(key=lambda s: (len(s), size_of(s)))
    return shapes


def contiguous_strides(shape):
    strides = [1] * len(shape)
    for i in range(len(shape) - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    return strides


def row_major(ordinal, shape):
    index = [0] * len(shape)
    for i in range(len(shape) - 1, -1, -1):
        index[i] = ordinal % shape[i]
        ordinal //= shape[i]
    return index


def int_array(xs):
    return np.array([int(x) for x in xs], dtype=np.int32)


def ints_of(v, n, what):
    try:
        got = [v[i] for i in range(len(v))]
    except Exception as e:
        raise Failure("%s is %s, not a sequence of ints (%s)" % (what, show(v), e))
    for g in got:
        if type(g) is not int:
            raise Failure("%s holds %s, not an int" % (what, show(g)))
    if n is not None and len(got) != n:
        raise Failure("%s has %d entries, expected %d" % (what, len(got), n))
    return got


def t_index_to_position(ck, r):
    f = ck.student("tensor_data", "index_to_position")

    def one(shape):
        strides = contiguous_strides(shape)
        if len(shape) > 1 and shape[0] % 2:  # a permuted layout as often as not
            strides = list(reversed(contiguous_strides(list(reversed(shape)))))
        for ordinal in range(min(size_of(shape), 24)):
            index = row_major(ordinal, shape)
            args = (int_array(index), int_array(strides))
            got = number(call(ck, f, args, "your index_to_position"), "index_to_position")
            want = sum([i * s for i, s in zip(index, strides)])
            if got != want:
                raise Failure("index_to_position(%s, strides %s): expected %d, got %s"
                              % (show(tuple(index)), show(tuple(strides)), want, show(got)))

    run_cases(r, "index_to_position", shape_cases(ck, 8), one)


def t_to_index(ck, r):
    f = ck.student("tensor_data", "to_index")

    def one(shape):
        for ordinal in range(size_of(shape)):
            out = np.zeros(len(shape), dtype=np.int32)
            call(ck, f, (ordinal, int_array(shape), out), "your to_index")
            got = ints_of(out, len(shape), "out_index")
            want = row_major(ordinal, shape)
            if got != want:
                raise Failure("to_index(%d, shape %s, out_index): out_index is %s, expected %s "
                              "(MiniTorch's order: the last dim fastest)"
                              % (ordinal, show(tuple(shape)), show(got), show(want)))

    run_cases(r, "to_index", shape_cases(ck, 8), one)


def t_permute(ck, r):
    TensorData = ck.student("tensor_data", "TensorData")

    def one(c):
        shape, order = c
        td = call(ck, TensorData, ([0.0] * size_of(shape), tuple(shape)), "your TensorData")
        p = call(ck, td.permute, tuple(order), "your TensorData.permute")
        text = "TensorData(shape %s).permute(%s)" % (show(tuple(shape)),
                                                      ", ".join(str(o) for o in order))
        got_shape = ints_of(p.shape, len(shape), text + "'s shape")
        got_strides = ints_of(p.strides, len(shape), text + "'s strides")
        strides = contiguous_strides(shape)
        want_shape = [shape[o] for o in order]
        want_strides = [strides[o] for o in order]
        if got_shape != want_shape or got_strides != want_strides:
            raise Failure("%s: expected shape %s and strides %s, got %s and %s"
                          % (text, show(tuple(want_shape)), show(tuple(want_strides)),
                             show(tuple(got_shape)), show(tuple(got_strides))))

    cases = []
    for shape in shape_cases(ck, 8):
        n = len(shape)
        cases.append((shape, list(reversed(range(n)))))
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = dim_draw(ck, 0, i)
            order[i], order[j] = order[j], order[i]
        cases.append((shape, order))
    run_cases(r, "permute", cases, one)


def broadcast_ref(a, b):
    """the broadcast shape of a and b, or None"""
    n = len(a) if len(a) > len(b) else len(b)
    a = [1] * (n - len(a)) + list(a)
    b = [1] * (n - len(b)) + list(b)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            return None
        out.append(x if x != 1 else y)
    return out


def t_shape_broadcast(ck, r):
    f = ck.student("tensor_data", "shape_broadcast")

    def one(c):
        a, b = c
        want = broadcast_ref(a, b)
        text = "shape_broadcast(%s, %s)" % (show(tuple(a)), show(tuple(b)))
        res = ck.call(f, (tuple(a), tuple(b)))
        if want is None:
            if res[0]:
                raise Failure("%s: expected an IndexingError (they do not broadcast), got %s"
                              % (text, show(res[1])))
            if not res[1].startswith("IndexingError"):
                raise Failure("%s: expected an IndexingError, got %s%s" % (text, res[1], res[2]))
            return
        if not res[0]:
            raise Failure("%s raised %s%s" % (text, res[1], res[2]))
        got = ints_of(res[1], None, text)
        if got != want:
            raise Failure("%s: expected %s, got %s" % (text, show(tuple(want)), show(res[1])))

    cases = [((1,), (5, 5)), ((5, 5), (1,)), ((1, 5, 5), (5, 5)), ((5, 1, 5, 1), (1, 5, 1, 5)),
             ((5, 7, 5, 1), (1, 5, 1, 5)), ((5, 2), (5,)), ((2, 5), (5,)), ((3,), (3,))]
    for shape in shape_cases(ck, 8):
        other = [1 if dim_draw(ck, 0, 1) else s for s in shape][dim_draw(ck, 0, len(shape) - 1):]
        cases.append((shape, other) if dim_draw(ck, 0, 1) else (other, shape))
    run_cases(r, "shape_broadcast", cases, one)


def t_broadcast_index(ck, r):
    f = ck.student("tensor_data", "broadcast_index")

    def one(c):
        big, small = c
        for ordinal in range(size_of(big)):
            big_index = row_major(ordinal, big)
            out = np.zeros(len(small), dtype=np.int32)
            args = (int_array(big_index), int_array(big), int_array(small), out)
            call(ck, f, args, "your broadcast_index")
            got = ints_of(out, len(small), "out_index")
            off = len(big) - len(small)
            want = [big_index[i + off] if small[i] > 1 else 0 for i in range(len(small))]
            if got != want:
                raise Failure("broadcast_index(%s, shape %s, into shape %s): out_index is %s, "
                              "expected %s" % (show(tuple(big_index)), show(tuple(big)),
                                               show(tuple(small)), show(got), show(want)))

    cases = [((2, 3), (3,)), ((2, 3), (1, 3)), ((2, 3), (2, 1)), ((3, 2, 2), (2, 1))]
    for shape in shape_cases(ck, 6):
        small = [1 if dim_draw(ck, 0, 1) else s for s in shape][dim_draw(ck, 0, len(shape) - 1):]
        cases.append((shape, small))
    run_cases(r, "broadcast_index", cases, one)


def task_2_1(ck, r, part):
    for name, test in [("index_to_position", t_index_to_position), ("to_index", t_to_index),
                       ("permute", t_permute)]:
        if part is None or part == name:
            test(ck, r)


def task_2_2(ck, r, part):
    for name, test in [("shape_broadcast", t_shape_broadcast),
                       ("broadcast_index", t_broadcast_index)]:
        if part is None or part == name:
            test(ck, r)


# ---- Module 2: tensor_ops.py, tensor_functions.py ------------------------------------------------


def values_of(t, what):
    """tensor t's shape and values in row-major order, read from its storage with check's own
    index math (nothing of the student's computes them)"""
    if type(t) in NUMBER or t is None:
        raise Failure("%s is %s, not a tensor" % (what, show(t)))
    td = t._tensor
    shape = ints_of(td.shape, None, what + "'s shape")
    strides = ints_of(td.strides, len(shape), what + "'s strides")
    storage = td._storage
    out = []
    for ordinal in range(size_of(shape)):
        index = row_major(ordinal, shape)
        out.append(number(storage[sum([i * s for i, s in zip(index, strides)])], what))
    return shape, out


def layout(shape, strides, ordinal):
    return sum([i * s for i, s in zip(row_major(ordinal, shape), strides)])


def reduced_index(index, dim):
    out = list(index)
    out[dim] = 0
    return out


# the scalar functions a backend is made from, by name: check's ops compute these itself, so
# that a function's test does not hang on the student's operators
REFS = {
    "neg": lambda x: -x, "sigmoid": sigmoid_ref, "relu": lambda x: x if x > 0 else 0.0,
    "log": math.log, "exp": math.exp, "id": lambda x: x, "inv": lambda x: 1.0 / x,
    "add": lambda x, y: x + y, "mul": lambda x, y: x * y,
    "lt": lambda x, y: 1.0 if x < y else 0.0, "eq": lambda x, y: 1.0 if x == y else 0.0,
    "is_close": lambda x, y: 1.0 if abs(x - y) < 1e-2 else 0.0,
    "relu_back": lambda x, d: d if x > 0 else 0.0, "log_back": lambda x, d: d / x,
    "inv_back": lambda x, d: -d / (x * x),
}


def ref_of(fn):
    return REFS.get(getattr(fn, "__name__", ""), fn)


def check_backend(ck):
    """the student's TensorBackend over ops of check's own (map, zip and reduce written here),
    so that a function's test runs the student's Function and not their tensor_map"""
    TensorOps = ck.student("tensor_ops", "TensorOps")
    TensorBackend = ck.student("tensor_ops", "TensorBackend")

    def broadcast_read(t, out_index):
        shape = list(t._tensor.shape)
        strides = list(t._tensor.strides)
        off = len(out_index) - len(shape)
        pos = 0
        for i in range(len(shape)):
            pos += (out_index[i + off] if shape[i] > 1 else 0) * strides[i]
        return t._tensor._storage[pos]

    def put(out, index, v):
        strides = list(out._tensor.strides)
        out._tensor._storage[sum([i * s for i, s in zip(index, strides)])] = v

    class CheckOps(TensorOps):
        @staticmethod
        def map(fn):
            f = ref_of(fn)

            def ret(a, out=None):
                if out is None:
                    out = a.zeros(a.shape)
                shape = list(out.shape)
                for o in range(size_of(shape)):
                    index = row_major(o, shape)
                    put(out, index, f(broadcast_read(a, index)))
                return out

            return ret

        @staticmethod
        def cmap(fn):
            return CheckOps.map(fn)

        @staticmethod
        def zip(fn):
            f = ref_of(fn)

            def ret(a, b):
                shape = broadcast_ref(list(a.shape), list(b.shape))
                out = a.zeros(tuple(shape))
                for o in range(size_of(shape)):
                    index = row_major(o, shape)
                    put(out, index, f(broadcast_read(a, index), broadcast_read(b, index)))
                return out

            return ret

        @staticmethod
        def reduce(fn, start=0.0):
            f = ref_of(fn)

            def ret(a, dim):
                shape = list(a.shape)
                out_shape = list(shape)
                out_shape[dim] = 1
                out = a.zeros(tuple(out_shape))
                acc = {}
                for o in range(size_of(shape)):
                    index = row_major(o, shape)
                    key = tuple(reduced_index(index, dim))
                    acc[key] = f(acc.get(key, start), broadcast_read(a, index))
                for key in acc:
                    put(out, list(key), acc[key])
                return out

            return ret

        @staticmethod
        def matrix_multiply(a, b):
            raise NotImplementedError("check's ops have no matrix_multiply")

        cuda = False
        is_cuda = False

    return TensorBackend(CheckOps)


def tensor_cases(ck, n, positive=False, scale=1.0):
    """(shape, values of each of n inputs) with shapes of 1 to 3 dims of 1 to 3"""
    cases = []
    for shape in [(1,), (3,), (2, 3), (3, 1, 2)] + [
        tuple(dim_draw(ck, 1, 3) for _ in range(dim_draw(ck, 1, 3))) for _ in range(4)
    ]:
        vals = []
        for _ in range(n):
            v = [ck.draw() * scale for _ in range(size_of(shape))]
            vals.append([abs(x) + 0.1 for x in v] if positive else v)
        if n == 2:  # equal and nearly equal pairs, for lt, eq and is_close
            for i in range(0, size_of(shape), 2):
                vals[1][i] = vals[0][i] + (0.0 if i % 4 == 0 else 0.005)
        cases.append((shape, vals))
    cases.sort(key=lambda c: size_of(c[0]))
    return cases


def make(ck, tensor, shape, vals, backend):
    flat = [float(v) for v in vals]
    t = call(ck, tensor, (flat, backend), "your tensor(ls, backend)") if backend else call(
        ck, tensor, (flat,), "your tensor(ls)")
    if len(shape) == 1:
        return t
    return call(ck, t.view, tuple(shape), "your Tensor.view")


def show_tensor(shape, vals):
    return "shape %s, values %s" % (show(tuple(shape)), show([round(v, 4) for v in vals[:8]])
                                    + (" ..." if len(vals) > 8 else ""))


# Task 2.3's functions, forward: how check calls each (the Tensor method, MiniTorch's given
# code) and what each element should be
FORWARD_T = {
    "mul": ("Mul", 2, "a * b", lambda a, b: a * b, lambda x, y: x * y),
    "sigmoid": ("Sigmoid", 1, "a.sigmoid()", lambda a: a.sigmoid(), sigmoid_ref),
    "relu": ("ReLU", 1, "a.relu()", lambda a: a.relu(), lambda x: x if x > 0 else 0.0),
    "log": ("Log", 1, "a.log()", lambda a: a.log(), math.log),
    "exp": ("Exp", 1, "a.exp()", lambda a: a.exp(), math.exp),
    "lt": ("LT", 2, "a < b", lambda a, b: a < b, lambda x, y: 1.0 if x < y else 0.0),
    "eq": ("EQ", 2, "a == b", lambda a, b: a == b, lambda x, y: 1.0 if x == y else 0.0),
    "is_close": ("IsClose", 2, "a.is_close(b)", lambda a, b: a.is_close(b),
                 lambda x, y: 1.0 if abs(x - y) < 1e-2 else 0.0),
}


def tensor_forward(ck, r, part):
    cls_name, n, text, expr, ref = FORWARD_T[part]
    tensor = ck.student("tensor_functions", "tensor")
    backend = check_backend(ck)

    def one(c):
        shape, vals = c
        ts = [make(ck, tensor, shape, v, backend) for v in vals]
        out = call(ck, lambda: expr(*ts), (), "%s (%s)" % (text, cls_name))
        got_shape, got = values_of(out, text)
        want = [ref(*xs) for xs in zip(*vals)]
        where = "%s with %s" % (text, "; ".join("%s: %s" % ("ab"[i], show_tensor(shape, vals[i]))
                                                 for i in range(n)))
        if got_shape != list(shape):
            raise Failure("%s: expected shape %s, got %s" % (where, show(tuple(shape)),
                                                             show(tuple(got_shape))))
        for i in range(len(want)):
            if not close(got[i], want[i]):
                raise Failure("%s: at %s expected %s, got %s" % (
                    where, show(tuple(row_major(i, shape))), show(want[i]), show(got[i])))

    cases = tensor_cases(ck, n, positive=part == "log", scale=0.1 if part == "exp" else 1.0)
    run_cases(r, "forward[%s]" % cls_name, cases, one)


def turned(n):
    """an order of n dims that is not its own inverse where there is one (n > 2)"""
    return list(range(1, n)) + [0] if n > 2 else list(reversed(range(n)))


def tensor_permute(ck, r):
    tensor = ck.student("tensor_functions", "tensor")
    backend = check_backend(ck)

    def one(c):
        shape, vals = c
        a = make(ck, tensor, shape, vals[0], backend)
        order = turned(len(shape))
        out = call(ck, a.permute, tuple(order), "a.permute(%s)" % show(tuple(order)))
        got_shape, got = values_of(out, "a.permute")
        want_shape = [shape[o] for o in order]
        text = "a.permute(%s) with a: %s" % (", ".join(str(o) for o in order),
                                             show_tensor(shape, vals[0]))
        if got_shape != want_shape:
            raise Failure("%s: expected shape %s, got %s" % (text, show(tuple(want_shape)),
                                                             show(tuple(got_shape))))
        for i in range(len(got)):
            out_index = row_major(i, want_shape)
            in_index = [0] * len(shape)
            for k in range(len(order)):
                in_index[order[k]] = out_index[k]
            want = vals[0][sum([x * s for x, s in zip(in_index, contiguous_strides(shape))])]
            if not close(got[i], want):
                raise Failure("%s: at %s expected %s, got %s" % (text, show(tuple(out_index)),
                                                                 show(want), show(got[i])))

    run_cases(r, "forward[Permute]", tensor_cases(ck, 1), one)


# the whole of Task 2.3 also runs MiniTorch's MathTest on the student's own backend
def tensor_math(ck, r, grads):
    tensor = ck.student("tensor_functions", "tensor")
    for name, n, fns, ref, expr in MATH:
        def one(c, name=name, n=n, ref=ref, expr=expr):
            shape, vals = c
            ts = [make(ck, tensor, shape, v, None) for v in vals]
            if grads:
                for t in ts:
                    call(ck, t.requires_grad_, (True,), "requires_grad_")
            out = call(ck, lambda: expr(*ts), (), "%s of your tensors" % name)
            got_shape, got = values_of(out, name)
            want = [ref(*xs) for xs in zip(*vals)]
            where = "%s with %s" % (name, "; ".join(
                "%s: %s" % ("ab"[i], show_tensor(shape, vals[i])) for i in range(n)))
            for i in range(len(want)):
                if not close(got[i], want[i]):
                    raise Failure("%s: at %s expected %s, got %s" % (
                        where, show(tuple(row_major(i, shape))), show(want[i]), show(got[i])))
            if not grads:
                return
            total = call(ck, out.sum, (), "sum()")
            call(ck, total.backward, (), "backward()")
            for k in range(n):
                if kink(name, [vals[j][0] for j in range(n)]):
                    continue
                g_shape, g = values_of(ts[k].grad, "%s's grad" % "ab"[k])
                for i in range(len(g)):
                    xs = [vals[j][i] for j in range(n)]
                    if kink(name, xs):
                        continue
                    h = 1e-6 * max(1.0, abs(xs[k]))
                    up = list(xs)
                    down = list(xs)
                    up[k] += h
                    down[k] -= h
                    want_g = (ref(*up) - ref(*down)) / (2 * h)
                    if not close(g[i], want_g):
                        raise Failure("d/d%s of %s.sum() at %s: expected %s (central "
                                      "difference), got %s" % ("ab"[k], where,
                                                                show(tuple(row_major(i, shape))),
                                                                show(want_g), show(g[i])))

        prefix = ("one" if n == 1 else "two") + ("_derivative" if grads else "_args")
        run_cases(r, "%s[%s]" % (prefix, name), tensor_cases(ck, n), one)


# Task 2.3's tensor_map, tensor_zip and tensor_reduce, called as SimpleOps calls them: float64
# storages, int32 shapes and strides, inputs laid out reversed as often as not, and broadcast
def float_array(xs):
    return np.array([float(x) for x in xs], dtype=np.float64)


def storage_of(ck, shape, reverse):
    """(storage, strides, values in row-major order) of a tensor of shape, laid out with its
    dims reversed when reverse"""
    vals = [round(ck.draw(), 2) for _ in range(size_of(shape))]
    if not reverse:
        return float_array(vals), contiguous_strides(shape), vals
    strides = list(reversed(contiguous_strides(list(reversed(shape)))))
    storage = [0.0] * size_of(shape)
    for i in range(size_of(shape)):
        storage[layout(shape, strides, i)] = vals[i]
    return float_array(storage), strides, vals


def small_of(ck, shape):
    """a shape that broadcasts to shape: some dims 1, maybe fewer dims"""
    small = [1 if dim_draw(ck, 0, 2) == 0 else s for s in shape]
    return small[dim_draw(ck, 0, len(shape) - 1):]


def broadcast_value(vals, small, index):
    return vals[broadcast_position(small, index)]


def low_level(ck, r, name):
    f = ck.student("tensor_ops", "tensor_" + name)
    fns = {
        "map": [("lambda x: 2 * x + 1", lambda x: 2 * x + 1), ("lambda x: -x", lambda x: -x)],
        "zip": [("lambda x, y: x - y", lambda x, y: x - y),
                ("lambda x, y: x * y", lambda x, y: x * y)],
        "reduce": [("lambda acc, x: acc + x", lambda acc, x: acc + x, 0.0),
                   ("lambda acc, x: max(acc, x)", lambda acc, x: acc if acc > x else x, -1e9)],
    }[name]

    def one(c):
        shape, variant = c
        text, fn = fns[variant % len(fns)][0], fns[variant % len(fns)][1]
        kernel = call(ck, f, (fn,), "your tensor_%s(%s)" % (name, text))
        out = np.zeros(size_of(shape), dtype=np.float64)
        ostr = contiguous_strides(shape)
        if name == "map":
            small = small_of(ck, shape) if variant >= 2 else list(shape)
            st, strides, vals = storage_of(ck, small, variant % 2 == 1)
            args = (out, int_array(shape), int_array(ostr), st, int_array(small),
                    int_array(strides))
            want = [fn(broadcast_value(vals, small, row_major(i, shape)))
                    for i in range(size_of(shape))]
            inputs = "in: shape %s, strides %s" % (show(tuple(small)), show(tuple(strides)))
        elif name == "zip":
            a_shape = small_of(ck, shape) if variant >= 2 else list(shape)
            b_shape = small_of(ck, shape) if variant >= 4 else list(shape)
            a, a_str, a_vals = storage_of(ck, a_shape, variant % 2 == 1)
            b, b_str, b_vals = storage_of(ck, b_shape, variant % 3 == 1)
            shape = broadcast_ref(a_shape, b_shape)
            out = np.zeros(size_of(shape), dtype=np.float64)
            ostr = contiguous_strides(shape)
            args = (out, int_array(shape), int_array(ostr), a, int_array(a_shape),
                    int_array(a_str), b, int_array(b_shape), int_array(b_str))
            want = [fn(broadcast_value(a_vals, a_shape, row_major(i, shape)),
                       broadcast_value(b_vals, b_shape, row_major(i, shape)))
                    for i in range(size_of(shape))]
            inputs = "a: shape %s, strides %s; b: shape %s, strides %s" % (
                show(tuple(a_shape)), show(tuple(a_str)), show(tuple(b_shape)),
                show(tuple(b_str)))
        else:
            start = fns[variant % len(fns)][2]
            dim = variant % len(shape)
            a, a_str, a_vals = storage_of(ck, shape, variant % 2 == 1)
            oshape = list(shape)
            oshape[dim] = 1
            out = float_array([start] * size_of(oshape))
            ostr = contiguous_strides(oshape)
            args = (out, int_array(oshape), int_array(ostr), a, int_array(shape),
                    int_array(a_str), dim)
            want = [start] * size_of(oshape)
            for i in range(size_of(shape)):
                o = reduced_index(row_major(i, shape), dim)
                k = sum([x * s for x, s in zip(o, ostr)])
                want[k] = fn(want[k], a_vals[i])
            inputs = "a: shape %s, strides %s, reduced along dim %d, out filled with %s" % (
                show(tuple(shape)), show(tuple(a_str)), dim, show(start))
            shape = oshape
        call(ck, kernel, args, "your tensor_%s's function" % name)
        for i in range(size_of(shape)):
            got = number(out[i], "out")
            if not close(got, want[i]):
                raise Failure("tensor_%s(%s) into out of shape %s with %s: out at %s is %s, "
                              "expected %s" % (name, text, show(tuple(shape)), inputs,
                                               show(tuple(row_major(i, shape))), show(got),
                                               show(want[i])))

    cases = []
    for shape in shape_cases(ck, 6):
        for variant in range(6 if name != "reduce" else 4):
            cases.append((list(shape), variant))
    run_cases(r, name, cases, one)


TENSOR_FUNCTIONS = ["mul", "sigmoid", "relu", "log", "exp", "lt", "eq", "is_close", "permute"]


def task_2_3(ck, r, part):
    for name in ["map", "zip", "reduce"]:
        if part is None or part == name:
            low_level(ck, r, name)
    for name in TENSOR_FUNCTIONS:
        if part is None or part == name:
            if name == "permute":
                tensor_permute(ck, r)
            else:
                tensor_forward(ck, r, name)
    if part is None:
        tensor_math(ck, r, False)


# Task 2.4: each function's backward alone, on check's ops
BACKWARD_T = {
    "mul": ("Mul", 2, lambda a, b, d: [d * b, d * a]),
    "sigmoid": ("Sigmoid", 1, lambda a, d: [d * sigmoid_ref(a) * (1 - sigmoid_ref(a))]),
    "relu": ("ReLU", 1, lambda a, d: [d if a > 0 else 0.0]),
    "log": ("Log", 1, lambda a, d: [d / a]),
    "exp": ("Exp", 1, lambda a, d: [d * math.exp(a)]),
    "lt": ("LT", 2, lambda a, b, d: [0.0, 0.0]),
    "eq": ("EQ", 2, lambda a, b, d: [0.0, 0.0]),
}


def tensor_backward(ck, r, part):
    cls_name, n, deriv = BACKWARD_T[part]
    tensor = ck.student("tensor_functions", "tensor")
    Fn = ck.student("tensor_functions", cls_name)
    Context = ck.student("autodiff", "Context")
    backend = check_backend(ck)

    def one(c):
        shape, vals = c
        ts = [make(ck, tensor, shape, v, backend) for v in vals[:n]]
        d = make(ck, tensor, shape, vals[n], backend)
        ctx = call(ck, Context, (), "your Context()")
        call(ck, Fn.forward, tuple([ctx] + ts), "your %s.forward" % cls_name)
        got = call(ck, Fn.backward, (ctx, d), "your %s.backward" % cls_name)
        got = list(got) if type(got) in (tuple, list) else [got]
        text = "%s.backward(ctx, d) after %s.forward(ctx, %s) with %s; d: %s" % (
            cls_name, cls_name, ", ".join("ab"[:n]),
            "; ".join("%s: %s" % ("ab"[i], show_tensor(shape, vals[i])) for i in range(n)),
            show_tensor(shape, vals[n]))
        if len(got) < n:
            raise Failure("%s gave %d gradient%s, expected %d" % (
                text, len(got), "" if len(got) == 1 else "s", n))
        for k in range(n):
            g_shape, g = values_of(got[k], "the gradient of " + "ab"[k])
            if g_shape != list(shape):
                raise Failure("%s: the gradient of %s has shape %s, expected %s" % (
                    text, "ab"[k], show(tuple(g_shape)), show(tuple(shape))))
            for i in range(len(g)):
                want = deriv(*([vals[j][i] for j in range(n)] + [vals[n][i]]))[k]
                if not close(g[i], want):
                    raise Failure("%s: the gradient of %s at %s is %s, expected %s" % (
                        text, "ab"[k], show(tuple(row_major(i, shape))), show(g[i]),
                        show(want)))

    cases = tensor_cases(ck, n + 1, positive=part == "log", scale=0.1 if part == "exp" else 1.0)
    run_cases(r, "backward[%s]" % cls_name, cases, one)


def tensor_permute_backward(ck, r):
    """Permute.backward(ctx, d) after Permute.forward(ctx, a, order): d put back in a's order"""
    tensor = ck.student("tensor_functions", "tensor")
    Permute = ck.student("tensor_functions", "Permute")
    Context = ck.student("autodiff", "Context")
    backend = check_backend(ck)

    def one(c):
        shape, vals = c
        a = make(ck, tensor, shape, vals[0], backend)
        order = turned(len(shape))
        pshape = [shape[o] for o in order]
        order_t = call(ck, tensor, ([float(o) for o in order], backend), "your tensor")
        d = make(ck, tensor, pshape, vals[1], backend)
        ctx = call(ck, Context, (), "your Context()")
        call(ck, Permute.forward, (ctx, a, order_t), "your Permute.forward")
        got = call(ck, Permute.backward, (ctx, d), "your Permute.backward")
        got = got[0] if type(got) in (tuple, list) else got
        g_shape, g = values_of(got, "Permute.backward's gradient")
        text = "Permute.backward(ctx, d) after Permute.forward(ctx, a, order %s), a of shape " \
               "%s, d: %s" % (show(tuple(order)), show(tuple(shape)), show_tensor(pshape, vals[1]))
        if g_shape != list(shape):
            raise Failure("%s: the gradient has shape %s, expected %s" % (
                text, show(tuple(g_shape)), show(tuple(shape))))
        for i in range(len(g)):
            index = row_major(i, shape)
            d_index = [index[o] for o in order]
            want = vals[1][sum([x * s for x, s in zip(d_index, contiguous_strides(pshape))])]
            if not close(g[i], want):
                raise Failure("%s: the gradient at %s is %s, expected %s (d at %s)" % (
                    text, show(tuple(index)), show(g[i]), show(want), show(tuple(d_index))))

    run_cases(r, "backward[Permute]", tensor_cases(ck, 2), one)


def task_2_4(ck, r, part):
    for name in ["mul", "sigmoid", "relu", "log", "exp", "lt", "eq", "permute"]:
        if part is None or part == name:
            if name == "permute":
                tensor_permute_backward(ck, r)
            else:
                tensor_backward(ck, r, name)
    if part is None:
        tensor_math(ck, r, True)


# ---- Tasks 1.5 and 2.5: the network, on Scalars and on tensors -----------------------------------
#
# The student's Linear and Network classes of the notebook (ck.notebook), built with MiniTorch's
# given __init__ code. check then gives each parameter a value of its own draws through
# Parameter.update (so that the seed of a report draws the same network again), as a Scalar or
# tensor of check's own (CheckScalar, CheckTensor below): the student's layers run on autodiff
# that check trusts, so that these tasks grade the layers alone, as each function of Modules 1
# and 2 is graded by its own tests. From the parameters check computes what the network should
# give: its output, the derivatives backward() should leave, and the losses and parameters of a
# few training epochs in which check itself takes each SGD step.


def backward_order(root):
    """root and everything it was computed from, each after all it was computed from"""
    order, seen = [], set()
    stack = [(root, False)]
    while stack:
        v, done = stack.pop()
        if done:
            order.append(v)
            continue
        if id(v) in seen:
            continue
        seen.add(id(v))
        stack.append((v, True))
        for p in v.parents:
            stack.append((p[0], False))
    return order


class CheckScalar:
    """check's own Scalar: a float, the Scalars it was computed from (each with the local
    derivative), and after backward() the derivative of each leaf"""

    def __init__(self, v, parents=()):
        self.data = float(v)
        self.parents = parents
        self.derivative = None

    def __repr__(self):
        return "Scalar(%s)" % show(self.data)

    def __add__(self, o):
        o = lift_scalar(o)
        return CheckScalar(self.data + o.data, ((self, 1.0), (o, 1.0)))

    def __radd__(self, o):
        return self.__add__(o)

    def __sub__(self, o):
        o = lift_scalar(o)
        return CheckScalar(self.data - o.data, ((self, 1.0), (o, -1.0)))

    def __rsub__(self, o):
        return lift_scalar(o).__sub__(self)

    def __mul__(self, o):
        o = lift_scalar(o)
        return CheckScalar(self.data * o.data, ((self, o.data), (o, self.data)))

    def __rmul__(self, o):
        return self.__mul__(o)

    def __truediv__(self, o):
        o = lift_scalar(o)
        return CheckScalar(self.data / o.data,
                           ((self, 1.0 / o.data), (o, -self.data / (o.data * o.data))))

    def __rtruediv__(self, o):
        return lift_scalar(o).__truediv__(self)

    def __neg__(self):
        return CheckScalar(-self.data, ((self, -1.0),))

    def relu(self):
        return CheckScalar(max(self.data, 0.0), ((self, 1.0 if self.data > 0 else 0.0),))

    def sigmoid(self):
        s = sigmoid_ref(self.data)
        return CheckScalar(s, ((self, s * (1.0 - s)),))

    def log(self):
        return CheckScalar(math.log(self.data), ((self, 1.0 / self.data),))

    def exp(self):
        e = math.exp(self.data)
        return CheckScalar(e, ((self, e),))

    def backward(self, d=1.0):
        pending = {id(self): d}
        for v in reversed(backward_order(self)):
            g = pending.get(id(v), 0.0)
            if not v.parents:
                v.derivative = (v.derivative or 0.0) + g
            for p, local in v.parents:
                pending[id(p)] = pending.get(id(p), 0.0) + g * local


def lift_scalar(x):
    if isinstance(x, CheckScalar):
        return x
    if type(x) in NUMBER:
        return CheckScalar(x)
    raise TypeError("check runs your network on Scalars of its own, which take numbers and "
                    "each other, not %s: build on the Scalars your layer is given (the "
                    "inputs and the parameters' .value)" % type(x).__name__)


def broadcast_position(shape, out_index):
    """the position in a row-major tensor of shape read for out_index (aligned at the right,
    dims of size 1 broadcast)"""
    pos, off = 0, len(out_index) - len(shape)
    for i in range(len(shape)):
        pos = pos * shape[i] + (out_index[i + off] if shape[i] > 1 else 0)
    return pos


class CheckTensor:
    """check's own tensor: row-major float values, a shape, the tensors it was computed from
    (each with a function from this one's gradient to its own), and after backward() the grad
    of each leaf that requires one. What MiniTorch's layers use: view, permute, contiguous,
    broadcasting + - * / (numbers too), unary -, sum and mean (of a dim or of all), relu,
    sigmoid, log, exp, shape, size, dims, t[i, j], detach and requires_grad_."""

    def __init__(self, vals, shape, parents=()):
        self.vals = vals
        self.shape = tuple(shape)
        self.parents = parents
        self.grad = None
        self.requires = False

    @property
    def size(self):
        return size_of(self.shape)

    @property
    def dims(self):
        return len(self.shape)

    def __repr__(self):
        return "Tensor(%s, shape %s)" % (show(self.vals[:8]), show(self.shape))

    def requires_grad_(self, x=True):
        self.requires = x

    def requires_grad(self):
        return self.requires or len(self.parents) > 0

    def detach(self):
        return CheckTensor(list(self.vals), self.shape)

    def __getitem__(self, key):
        index = [key] if type(key) is int else list(key)
        return self.vals[broadcast_position(self.shape, index)]

    def view(self, *shape):
        if len(shape) == 1 and type(shape[0]) in (tuple, list):
            shape = shape[0]
        shape = tuple(shape)
        if size_of(shape) != self.size:
            raise ValueError("view%s of a tensor of shape %s" % (show(shape), show(self.shape)))
        return CheckTensor(list(self.vals), shape, ((self, lambda g: g),))

    def contiguous(self):
        return CheckTensor(list(self.vals), self.shape, ((self, lambda g: g),))

    def permute(self, *order):
        shape = tuple(self.shape[o] for o in order)
        src = []
        for ordinal in range(self.size):
            index = row_major(ordinal, shape)
            back = [0] * len(order)
            for k in range(len(order)):
                back[order[k]] = index[k]
            src.append(broadcast_position(self.shape, back))
        n = self.size

        def grad(g):
            out = [0.0] * n
            for o in range(n):
                out[src[o]] += g[o]
            return out
        return CheckTensor([self.vals[s] for s in src], shape, ((self, grad),))

    def zip(self, o, f, da, db):
        o = lift_tensor(o)
        shape = broadcast_ref(self.shape, o.shape)
        if shape is None:
            raise ValueError("shapes %s and %s do not broadcast" % (show(self.shape),
                                                                    show(o.shape)))
        ia, ib = [], []
        for ordinal in range(size_of(shape)):
            index = row_major(ordinal, shape)
            ia.append(broadcast_position(self.shape, index))
            ib.append(broadcast_position(o.shape, index))
        xs = [self.vals[i] for i in ia]
        ys = [o.vals[i] for i in ib]

        def grad_of(n, at, d):
            def grad(g):
                out = [0.0] * n
                for k in range(len(g)):
                    out[at[k]] += g[k] * d(xs[k], ys[k])
                return out
            return grad
        return CheckTensor([f(x, y) for x, y in zip(xs, ys)], shape,
                           ((self, grad_of(self.size, ia, da)), (o, grad_of(o.size, ib, db))))

    def map(self, f, d):
        xs = self.vals
        return CheckTensor([f(x) for x in xs], self.shape,
                           ((self, lambda g: [g[k] * d(xs[k]) for k in range(len(g))]),))

    def __add__(self, o):
        return self.zip(o, lambda x, y: x + y, lambda x, y: 1.0, lambda x, y: 1.0)

    def __radd__(self, o):
        return self.__add__(o)

    def __sub__(self, o):
        return self.zip(o, lambda x, y: x - y, lambda x, y: 1.0, lambda x, y: -1.0)

    def __rsub__(self, o):
        return lift_tensor(o).__sub__(self)

    def __mul__(self, o):
        return self.zip(o, lambda x, y: x * y, lambda x, y: y, lambda x, y: x)

    def __rmul__(self, o):
        return self.__mul__(o)

    def __truediv__(self, o):
        return self.zip(o, lambda x, y: x / y, lambda x, y: 1.0 / y, lambda x, y: -x / (y * y))

    def __rtruediv__(self, o):
        return lift_tensor(o).__truediv__(self)

    def __neg__(self):
        return self.map(lambda x: -x, lambda x: -1.0)

    def relu(self):
        return self.map(lambda x: max(x, 0.0), lambda x: 1.0 if x > 0 else 0.0)

    def sigmoid(self):
        return self.map(sigmoid_ref, lambda x: sigmoid_ref(x) * (1.0 - sigmoid_ref(x)))

    def log(self):
        return self.map(math.log, lambda x: 1.0 / x)

    def exp(self):
        return self.map(math.exp, math.exp)

    def sum(self, dim=None):
        if dim is None:
            return self.contiguous().view(self.size).sum(0)
        shape = list(self.shape)
        shape[dim] = 1
        at = [broadcast_position(shape, row_major(k, self.shape)) for k in range(self.size)]
        vals = [0.0] * size_of(shape)
        for k in range(self.size):
            vals[at[k]] += self.vals[k]
        return CheckTensor(vals, shape, ((self, lambda g: [g[at[k]] for k in range(len(at))]),))

    def mean(self, dim=None):
        n = self.size if dim is None else self.shape[dim]
        return self.sum(dim) / float(n)

    def backward(self, grad=None):
        if grad is None:
            grad = [1.0] * self.size
        elif isinstance(grad, CheckTensor):
            grad = grad.vals
        pending = {id(self): grad}
        for v in reversed(backward_order(self)):
            g = pending.get(id(v))
            if g is None:
                continue
            if not v.parents:
                if v.requires:
                    old = v.grad.vals if v.grad is not None else [0.0] * v.size
                    v.grad = CheckTensor([a + b for a, b in zip(old, g)], v.shape)
                continue
            for p, fn in v.parents:
                mine = fn(g)
                had = pending.get(id(p))
                pending[id(p)] = mine if had is None else [a + b for a, b in zip(had, mine)]


def lift_tensor(x):
    if isinstance(x, CheckTensor):
        return x
    if type(x) in NUMBER:
        return CheckTensor([float(x)], (1,))
    raise TypeError("check runs your network on tensors of its own, which take numbers and "
                    "each other, not %s: build on the tensors your layer is given (the input "
                    "and the parameters' .value)" % type(x).__name__)


# the layers' names and sizes of Network(hidden), as MiniTorch's template has them
LAYERS = ["layer1", "layer2", "layer3"]


def layer_sizes(hidden):
    return [(2, hidden), (hidden, hidden), (hidden, 1)]


def forward_ref(layers, x):
    """MiniTorch's network on plain floats: each layer's pre-activations and outputs"""
    pre, acts, h = [], [x], x
    for k in range(len(layers)):
        W, b = layers[k]
        z = [b[j] + sum([h[i] * W[i][j] for i in range(len(h))]) for j in range(len(b))]
        pre.append(z)
        h = [max(v, 0.0) for v in z] if k < len(layers) - 1 else [sigmoid_ref(z[0])]
        acts.append(h)
    return pre, acts


def point_grads(layers, x, label, scale, grads):
    """adds scale times the derivatives of the point's loss, -log(prob of its label), to
    grads (as layers: (W, b) per layer); returns the loss"""
    pre, acts = forward_ref(layers, x)
    out = acts[-1][0]
    prob = out if label == 1 else 1.0 - out
    dz = [scale * (-1.0 / prob) * (1.0 if label == 1 else -1.0) * out * (1.0 - out)]
    for k in range(len(layers) - 1, -1, -1):
        W, b = layers[k]
        gW, gb = grads[k]
        h = acts[k]
        for j in range(len(b)):
            gb[j] += dz[j]
            for i in range(len(h)):
                gW[i][j] += h[i] * dz[j]
        if k > 0:
            dz = [sum([W[i][j] * dz[j] for j in range(len(b))]) if pre[k - 1][i] > 0 else 0.0
                  for i in range(len(h))]
    return -math.log(prob)


def epoch_ref(layers, X, y, rate):
    """one epoch of the course's loop on plain floats: the total loss, the stepped layers"""
    grads = [([[0.0] * len(b) for _ in W], [0.0] * len(b)) for W, b in layers]
    total = 0.0
    for x, label in zip(X, y):
        total += point_grads(layers, x, label, 1.0 / len(X), grads)
    stepped = []
    for (W, b), (gW, gb) in zip(layers, grads):
        stepped.append(([[W[i][j] - rate * gW[i][j] for j in range(len(b))]
                         for i in range(len(W))], [b[j] - rate * gb[j] for j in range(len(b))]))
    return total, stepped


def train_points(ck, n):
    """n points of the unit square (three decimals) and MiniTorch's Simple labels"""
    X = [[round((ck.draw() + 100) / 200, 3), round((ck.draw() + 100) / 200, 3)]
         for _ in range(n)]
    return X, [1 if a < 0.5 else 0 for a, b in X]


# A step of SGD moves a parameter by little: after training, parameters and losses are
# compared this closely (the network is small, and its sums are short)
TRAIN_TOL = 1e-5


def close_train(got, want):
    return abs(got - want) < TRAIN_TOL * max(1.0, abs(want))


def compare_layers(got, want, what):
    for k in range(len(want)):
        (gW, gb), (wW, wb) = got[k], want[k]
        for i in range(len(wW)):
            for j in range(len(wb)):
                if not close_train(gW[i][j], wW[i][j]):
                    raise Failure("%s: %s's weight [%d][%d] expected %s, got %s" % (
                        what, LAYERS[k], i, j, show(wW[i][j]), show(gW[i][j])))
        for j in range(len(wb)):
            if not close_train(gb[j], wb[j]):
                raise Failure("%s: %s's bias [%d] expected %s, got %s" % (
                    what, LAYERS[k], j, show(wb[j]), show(gb[j])))


def draw_layer(ck, n_in, n_out, k):
    """a layer's weights and bias from check's draws, in [-1, 1). In a Network (k: the layer's
    place), the first unit of layer2 gets a bias below -1.5 and small weights in, and layer3 a
    weight of at least 0.5 from it: a unit that relu turns off on most points and that the
    output feels, so that a relu left out changes the output whatever else was drawn. The last
    unit of layer2 (of two or more) gets a bias above 0.5: one that is on for most points, so
    that the derivatives reach every layer's weights."""
    W = [[ck.draw() / 100 for _ in range(n_out)] for _ in range(n_in)]
    b = [ck.draw() / 100 for _ in range(n_out)]
    if k == 1:
        b[0] = -1.5 - abs(b[0]) / 2
        for i in range(n_in):
            W[i][0] /= 4
        if n_out > 1:
            b[-1] = 0.5 + abs(b[-1]) / 2
    if k == 2:
        W[0][0] = (0.5 + abs(W[0][0]) / 2) * (1.0 if W[0][0] >= 0 else -1.0)
    return W, b


def net_of(ck, Network, hidden, fill):
    """the student's Network(hidden), its parameters drawn by fill, and them as floats"""
    net = call(ck, Network, (hidden,), "your Network(%d)" % hidden)
    layers = []
    for k in range(3):
        n_in, n_out = layer_sizes(hidden)[k]
        layer = getattr(net, LAYERS[k], None)
        if layer is None:
            raise Failure("Network(%d) has no %s: MiniTorch's network names its layers layer1, "
                          "layer2 and layer3" % (hidden, LAYERS[k]))
        layers.append(fill(layer, n_in, n_out, "Network(%d).%s" % (hidden, LAYERS[k]), k))
    return net, layers


def parameter_count(ck, net, what):
    return len(as_list(call(ck, net.parameters, (), "parameters()"), what + ".parameters()"))


# -- Task 1.5: Scalars


def scalar_sizes(layer, n_in, n_out, what):
    W, b = layer.weights, layer.bias
    ok = type(W) is list and len(W) == n_in and type(b) is list and len(b) == n_out
    if ok:
        for row in W:
            ok = ok and type(row) is list and len(row) == n_out
    if not ok:
        raise Failure("%s should be Linear(%d, %d): %d rows of %d weights and %d biases" % (
            what, n_in, n_out, n_in, n_out, n_out))


def scalar_layer(layer, n_in, n_out, what):
    """a Linear's weights[i][j] and bias[j] (Parameters of check's Scalars) as floats"""
    scalar_sizes(layer, n_in, n_out, what)
    return ([[number(p.value.data, what + "'s weight") for p in row] for row in layer.weights],
            [number(p.value.data, what + "'s bias") for p in layer.bias])


def scalar_fill(ck):
    def fill(layer, n_in, n_out, what, k=None):
        scalar_sizes(layer, n_in, n_out, what)
        W, b = draw_layer(ck, n_in, n_out, k)
        for i in range(n_in):
            for j in range(n_out):
                call(ck, layer.weights[i][j].update, (CheckScalar(W[i][j]),), "Parameter.update")
        for j in range(n_out):
            call(ck, layer.bias[j].update, (CheckScalar(b[j]),), "Parameter.update")
        return scalar_layer(layer, n_in, n_out, what)
    return fill


def derivative_of(s, what):
    d = s.derivative
    if d is None:
        raise Failure("%s has no derivative after backward(): does forward compute with the "
                      "parameters' Scalars (self.weights[i][j].value), not their floats (.data)?"
                      % what)
    return d


def scalar_out(v, what):
    if not isinstance(v, CheckScalar):
        raise Failure("%s is %s, not a Scalar computed from the inputs: check runs your layer on "
                      "Scalars of its own, and this is not one of them" % (what, show(v)))
    return v


def scalar_linear(ck, r):
    Linear = ck.notebook("Linear")

    def one(c):
        n_in, n_out = c
        layer = call(ck, Linear, (n_in, n_out), "your Linear(%d, %d)" % c)
        W, b = scalar_fill(ck)(layer, n_in, n_out, "Linear(%d, %d)" % c)
        x = [ck.draw() / 10 for _ in range(n_in)]
        xs = [CheckScalar(v) for v in x]
        what = "Linear(%d, %d).forward(%s)" % (n_in, n_out, show(x))
        out = as_list(call(ck, layer.forward, (xs,), "your Linear.forward"), what)
        if len(out) != n_out:
            raise Failure("%s gave %d outputs, expected %d" % (what, len(out), n_out))
        want = forward_ref([(W, b)], x)[0][0]
        for j in range(n_out):
            got = scalar_out(out[j], "%s's output %d" % (what, j)).data
            if not close(got, want[j]):
                raise Failure("%s: output %d expected %s, got %s (weights %s, bias %s)" % (
                    what, j, show(want[j]), show(got), show(W), show(b)))
        cs = [ck.draw() / 10 for _ in range(n_out)]
        total = out[0] * cs[0]
        for j in range(1, n_out):
            total = total + out[j] * cs[j]
        total.backward()
        text = "after backward() of the sum of output j times %s" % show(cs)
        for i in range(n_in):
            want_d = sum([cs[j] * W[i][j] for j in range(n_out)])
            got_d = derivative_of(xs[i], "input %d" % i)
            if not close(got_d, want_d):
                raise Failure("%s, %s: input %d's derivative expected %s, got %s" % (
                    what, text, i, show(want_d), show(got_d)))
            for j in range(n_out):
                got_w = derivative_of(layer.weights[i][j].value, "weights[%d][%d]" % (i, j))
                if not close(got_w, cs[j] * x[i]):
                    raise Failure("%s, %s: weights[%d][%d]'s derivative expected %s, got %s" % (
                        what, text, i, j, show(cs[j] * x[i]), show(got_w)))
        for j in range(n_out):
            got_b = derivative_of(layer.bias[j].value, "bias[%d]" % j)
            if not close(got_b, cs[j]):
                raise Failure("%s, %s: bias[%d]'s derivative expected %s, got %s" % (
                    what, text, j, show(cs[j]), show(got_b)))

    run_cases(r, "Linear.forward", [(1, 1), (2, 3), (3, 2), (4, 1)], one)


def scalar_network(ck, r):
    Network = ck.notebook("Network")

    def one(hidden):
        net, layers = net_of(ck, Network, hidden, scalar_fill(ck))
        count = parameter_count(ck, net, "Network(%d)" % hidden)
        want_count = hidden * hidden + 5 * hidden + 1
        if count != want_count:
            raise Failure("Network(%d) has %d parameters, expected %d" % (hidden, count,
                                                                         want_count))
        for _ in range(4):
            x = [round((ck.draw() + 100) / 200, 3), round((ck.draw() + 100) / 200, 3)]
            what = "Network(%d).forward(%s)" % (hidden, show(tuple(x)))
            out = call(ck, net.forward, ((CheckScalar(x[0]), CheckScalar(x[1])),),
                       "your Network.forward")
            got = scalar_out(out, what).data
            want = forward_ref(layers, x)[1][-1][0]
            if not close(got, want):
                raise Failure("%s expected %s, got %s" % (what, show(want), show(got)))

    run_cases(r, "Network", [1, 2, 3], one)


def scalar_training(ck, r):
    Network = ck.notebook("Network")
    epochs, rate = 3, 0.5

    def one(hidden):
        net, layers = net_of(ck, Network, hidden, scalar_fill(ck))
        X, y = train_points(ck, 10)
        params = as_list(call(ck, net.parameters, (), "parameters()"), "parameters()")
        for e in range(1, epochs + 1):
            for p in params:
                p.value.derivative = None
            total = 0.0
            for x, label in zip(X, y):
                out = scalar_out(call(ck, net.forward, ((CheckScalar(x[0]), CheckScalar(x[1])),),
                                      "your Network.forward"), "Network.forward's output")
                loss = -(out if label == 1 else -out + 1.0).log()
                (loss / len(X)).backward()
                total += loss.data
            for p in params:
                step = rate * (p.value.derivative or 0.0)
                call(ck, p.update, (CheckScalar(p.value.data - step),), "Parameter.update")
            want, layers = epoch_ref(layers, X, y, rate)
            what = "Network(%d), %d points, SGD at rate %s: epoch %d" % (hidden, len(X),
                                                                        show(rate), e)
            if not close_train(total, want):
                raise Failure("%s's loss expected %s, got %s" % (what, show(want), show(total)))
            got = [scalar_layer(getattr(net, LAYERS[k]), len(layers[k][0]), len(layers[k][1]),
                                LAYERS[k]) for k in range(3)]
            compare_layers(got, layers, "after " + what)

    run_cases(r, "training", [2, 3], one)


def task_1_5(ck, r, part):
    for name, test in [("Linear", scalar_linear), ("Network", scalar_network),
                       ("training", scalar_training)]:
        if part is None or part == name:
            test(ck, r)


# -- Task 2.5: tensors


def check_values(t, shape, what):
    """check's tensor t's values, after checking that it is one of check's and of shape"""
    if not isinstance(t, CheckTensor):
        raise Failure("%s is %s, not a tensor computed from the inputs: check runs your layers "
                      "on tensors of its own, and this is not one of them (made with "
                      "minitorch.tensor, say)" % (what, show(t)))
    if list(t.shape) != list(shape):
        raise Failure("%s has shape %s, expected %s" % (what, show(t.shape), show(tuple(shape))))
    return t.vals


def tensor_layer(layer, n_in, n_out, what):
    """a Linear's weights (in_size, out_size) and bias (out_size,) as lists of floats"""
    w = check_values(layer.weights.value, [n_in, n_out], what + "'s weights")
    b = check_values(layer.bias.value, [n_out], what + "'s bias")
    return [w[i * n_out:(i + 1) * n_out] for i in range(n_in)], b


def own_rparam(ck, test):
    """test(), with the notebook's RParam (which MiniTorch's Linear draws its parameters with,
    through the student's tensors) one of check's while it runs: check gives the parameters
    values of its own anyway, and so a bug of Tasks 2.1 to 2.4 does not stop Task 2.5's tests"""
    import minitorch

    def RParam(*shape):
        return minitorch.Parameter(CheckTensor([0.0] * size_of(shape), shape))

    theirs = ck.swap_global("RParam", RParam)
    try:
        test()
    finally:
        ck.swap_global("RParam", theirs)


def tensor_fill(ck):
    def fill(layer, n_in, n_out, what, k=None):
        for p, shape, name in [(layer.weights, (n_in, n_out), "weights"),
                               (layer.bias, (n_out,), "bias")]:
            got = tuple(p.value.shape)
            if got != shape:
                raise Failure("%s should be Linear(%d, %d): its %s of shape %s, not %s" % (
                    what, n_in, n_out, name, show(shape), show(got)))
        W, b = draw_layer(ck, n_in, n_out, k)
        flat = []
        for row in W:
            flat += row
        call(ck, layer.weights.update, (CheckTensor(flat, (n_in, n_out)),), "Parameter.update")
        call(ck, layer.bias.update, (CheckTensor(b, (n_out,)),), "Parameter.update")
        for p in [layer.weights.value, layer.bias.value]:
            if not p.requires:
                raise Failure("%s: Parameter.update(x) should call x.requires_grad_(True), as "
                              "MiniTorch's does" % what)
        return tensor_layer(layer, n_in, n_out, what)
    return fill


def grad_of(t, shape, what):
    if t.grad is None:
        raise Failure("%s has no grad after backward(): does forward compute with the "
                      "parameters' tensors (self.weights.value), kept in the graph (no "
                      "detach())?" % what)
    return check_values(t.grad, shape, what + "'s grad")


def tensor_linear(ck, r):
    Linear = ck.notebook("Linear")

    def one(c):
        batch, n_in, n_out = c
        layer = call(ck, Linear, (n_in, n_out), "your Linear(%d, %d)" % (n_in, n_out))
        W, b = tensor_fill(ck)(layer, n_in, n_out, "Linear(%d, %d)" % (n_in, n_out))
        xv = [ck.draw() / 10 for _ in range(batch * n_in)]
        x = CheckTensor(xv, (batch, n_in))
        x.requires_grad_(True)
        what = "Linear(%d, %d).forward(x), x: %s" % (n_in, n_out, show_tensor([batch, n_in], xv))
        out = call(ck, layer.forward, (x,), "your Linear.forward")
        got = check_values(out, [batch, n_out], what)
        for n in range(batch):
            want = forward_ref([(W, b)], xv[n * n_in:(n + 1) * n_in])[0][0]
            for j in range(n_out):
                if not close(got[n * n_out + j], want[j]):
                    raise Failure("%s: at %s expected %s, got %s (weights %s, bias %s)" % (
                        what, show((n, j)), show(want[j]), show(got[n * n_out + j]), show(W),
                        show(b)))
        cv = [ck.draw() / 10 for _ in range(batch * n_out)]
        (out * CheckTensor(cv, (batch, n_out))).sum().backward()
        text = "%s, after backward() of (out * c).sum(), c: %s" % (
            what, show_tensor([batch, n_out], cv))
        gx = grad_of(x, [batch, n_in], "x")
        gw = grad_of(layer.weights.value, [n_in, n_out], "weights")
        gb = grad_of(layer.bias.value, [n_out], "bias")
        for n in range(batch):
            for i in range(n_in):
                want = sum([cv[n * n_out + j] * W[i][j] for j in range(n_out)])
                if not close(gx[n * n_in + i], want):
                    raise Failure("%s: x.grad at %s expected %s, got %s" % (
                        text, show((n, i)), show(want), show(gx[n * n_in + i])))
        for i in range(n_in):
            for j in range(n_out):
                want = sum([cv[n * n_out + j] * xv[n * n_in + i] for n in range(batch)])
                if not close(gw[i * n_out + j], want):
                    raise Failure("%s: the weights' grad at %s expected %s, got %s" % (
                        text, show((i, j)), show(want), show(gw[i * n_out + j])))
        for j in range(n_out):
            want = sum([cv[n * n_out + j] for n in range(batch)])
            if not close(gb[j], want):
                raise Failure("%s: the bias's grad at %s expected %s, got %s" % (
                    text, show((j,)), show(want), show(gb[j])))

    run_cases(r, "Linear.forward", [(1, 1, 1), (2, 2, 3), (3, 3, 2), (4, 2, 1)], one)


def tensor_network(ck, r):
    Network = ck.notebook("Network")

    def one(hidden):
        net, layers = net_of(ck, Network, hidden, tensor_fill(ck))
        count = parameter_count(ck, net, "Network(%d)" % hidden)
        if count != 6:
            raise Failure("Network(%d) has %d parameters, expected 6 (each layer's weights and "
                          "bias)" % (hidden, count))
        X, y = train_points(ck, 4)
        flat = []
        for x in X:
            flat += x
        what = "Network(%d).forward(x), x: %s" % (hidden, show(X))
        out = call(ck, net.forward, (CheckTensor(flat, (4, 2)),), "your Network.forward")
        got = check_values(out, [4, 1], what + " (one probability per point)")
        for n in range(4):
            want = forward_ref(layers, X[n])[1][-1][0]
            if not close(got[n], want):
                raise Failure("%s: at %s expected %s, got %s" % (what, show((n, 0)), show(want),
                                                                 show(got[n])))

    run_cases(r, "Network", [1, 2, 3], one)


def tensor_training(ck, r):
    Network = ck.notebook("Network")
    epochs, rate, n = 3, 0.5, 10

    def one(hidden):
        net, layers = net_of(ck, Network, hidden, tensor_fill(ck))
        X, y = train_points(ck, n)
        flat = []
        for x in X:
            flat += x
        xt = CheckTensor(flat, (n, 2))
        yt = CheckTensor([float(c) for c in y], (n,))
        params = as_list(call(ck, net.parameters, (), "parameters()"), "parameters()")
        for e in range(1, epochs + 1):
            for p in params:
                p.value.grad = None
            out = call(ck, net.forward, (xt,), "your Network.forward")
            check_values(out, [n, 1], "Network.forward's output")
            out = out.view(n)
            loss = -(out * yt + (out - 1.0) * (yt - 1.0)).log()
            (loss / n).sum().backward()
            total = sum(loss.vals)
            for p in params:
                v = p.value
                g = v.grad.vals if v.grad is not None else [0.0] * v.size
                new = CheckTensor([v.vals[i] - rate * g[i] for i in range(v.size)], v.shape)
                call(ck, p.update, (new,), "Parameter.update")
            want, layers = epoch_ref(layers, X, y, rate)
            what = "Network(%d), %d points, SGD at rate %s: epoch %d" % (hidden, n, show(rate), e)
            if not close_train(total, want):
                raise Failure("%s's loss expected %s, got %s" % (what, show(want), show(total)))
            got = [tensor_layer(getattr(net, LAYERS[k]), len(layers[k][0]), len(layers[k][1]),
                                LAYERS[k]) for k in range(3)]
            compare_layers(got, layers, "after " + what)

    run_cases(r, "training", [2, 3], one)


def task_2_5(ck, r, part):
    for name, test in [("Linear", tensor_linear), ("Network", tensor_network),
                       ("training", tensor_training)]:
        if part is None or part == name:
            own_rparam(ck, lambda: test(ck, r))


# ---- Module 4: convolutions, pooling, max, softmax, dropout ------------------------------------
#
# The student's Module 4 (their fast_conv.py and nn.py, or the same names defined in their
# notebook: ck.own) on inputs check makes with the kernel's own tensors (ck.tensor) and reads back
# with ck.values: Module 4 builds on the kernel's Modules 0 to 3, and only the kernel's
# convolutions, its nn.py and its tensors' max (which MiniTorch's Tensor lacks) are refused while
# it runs. The kernels of Tasks 4.1 and 4.2 are called as MiniTorch's Conv1dFun and Conv2dFun call
# them, on numpy storages, in their forward and in both calls of their backward.


def draws(ck, n, scale=0.1):
    return [round(ck.draw() * scale, 3) for _ in range(n)]


def permuted(shape, vals, order):
    """a storage holding the row-major tensor (shape, vals) permuted by order, contiguous: the
    view that permute(order) of that storage undoes is (shape, strides)"""
    pshape = [shape[o] for o in order]
    pstrides = contiguous_strides(pshape)
    storage = [0.0] * len(vals)
    strides = [0] * len(shape)
    for i, o in enumerate(order):
        strides[o] = pstrides[i]
    for ordinal in range(len(vals)):
        storage[layout(shape, strides, ordinal)] = vals[ordinal]
    return storage, strides


def conv_ref(out_shape, ins, ws, reverse):
    """MiniTorch's convolution by its definition: out[b, o, y, x] = the sum over c, ky, kx of
    input[b, c, y +- ky, x +- kx] * weight[o, c, ky, kx], the input zero past its edges. ins and
    ws are (shape, storage, strides) of 4 dims (1-D ones lifted with height 1); row-major out"""
    (B, C, H, W), si, ti = ins
    (O, C2, KH, KW), sw, tw = ws
    _, _, OH, OW = out_shape
    out = []
    for b in range(out_shape[0]):
        for o in range(out_shape[1]):
            for y in range(OH):
                for x in range(OW):
                    acc = 0.0
                    for c in range(C):
                        for ky in range(KH):
                            iy = y - ky if reverse else y + ky
                            if iy < 0 or iy >= H:
                                continue
                            for kx in range(KW):
                                ix = x - kx if reverse else x + kx
                                if 0 <= ix < W:
                                    acc += (si[b * ti[0] + c * ti[1] + iy * ti[2] + ix * ti[3]]
                                            * sw[o * tw[0] + c * tw[1] + ky * tw[2] + kx * tw[3]])
                    out.append(acc)
    return out


def lift(shape, strides):
    """a 1-D convolution's (B, C, W) as 2-D (B, C, 1, W)"""
    if len(shape) == 3:
        return [shape[0], shape[1], 1, shape[2]], [strides[0], strides[1], 0, strides[2]]
    return list(shape), list(strides)


def conv_call(ck, fn, name, out_shape, inp, wt, reverse):
    """the student's kernel fn(out, out_shape, out_strides, out_size, input, input_shape,
    input_strides, weight, weight_shape, weight_strides, reverse) on numpy storages, against the
    definition; inp and wt are (shape, storage, strides)"""
    size = size_of(out_shape)
    out = np.zeros(size, dtype=np.float64)
    args = (out, int_array(out_shape), int_array(contiguous_strides(out_shape)), size,
            np.array(inp[1], dtype=np.float64), int_array(inp[0]), int_array(inp[2]),
            np.array(wt[1], dtype=np.float64), int_array(wt[0]), int_array(wt[2]), reverse)
    call(ck, fn, args, "your " + name)
    got = [number(out[i], name) for i in range(size)]
    oshape, _ = lift(out_shape, contiguous_strides(out_shape))
    ishape, istr = lift(inp[0], inp[2])
    wshape, wstr = lift(wt[0], wt[2])
    want = conv_ref(oshape, (ishape, inp[1], istr), (wshape, wt[1], wstr), reverse)
    for i in range(size):
        if not close(got[i], want[i]):
            raise Failure(
                "%s(out %s, input %s, weight %s, reverse=%s): out at %s is %s, expected %s%s"
                % (name, show(tuple(out_shape)), show_layout(inp), show_layout(wt), reverse,
                   show(tuple(row_major(i, out_shape))), show(got[i]), show(round(want[i], 6)),
                   conv_hint(inp, wt)))


def show_layout(t):
    shape, vals, strides = t
    text = "shape %s" % show(tuple(shape))
    if list(strides) != contiguous_strides(shape):
        text += " strides %s" % show(tuple(strides))
    return text + " values " + show([round(v, 4) for v in vals[:6]]) + (
        " ..." if len(vals) > 6 else "")


def conv_hint(inp, wt):
    if list(inp[2]) != contiguous_strides(inp[0]) or list(wt[2]) != contiguous_strides(wt[0]):
        return " (a permuted layout, as backward passes it: read every element through the strides)"
    return ""


def conv_cases(ck, d):
    """(input shape, weight shape) pairs for a d-D convolution: MiniTorch's test sizes, then
    drawn ones, smallest first"""
    if d == 1:
        fixed = [((1, 1, 4), (1, 1, 3)), ((1, 1, 6), (1, 1, 4)), ((2, 2, 6), (3, 2, 2))]
        drawn = [((dim_draw(ck, 1, 3), c, dim_draw(ck, 3, 8)), (dim_draw(ck, 1, 3), c,
                                                                 dim_draw(ck, 1, 3)))
                 for c in [dim_draw(ck, 1, 3) for _ in range(4)]]
    else:
        fixed = [((1, 1, 4, 4), (1, 1, 2, 2)), ((1, 1, 6, 6), (1, 1, 2, 4)),
                 ((2, 2, 6, 6), (3, 2, 2, 4))]
        drawn = [((dim_draw(ck, 1, 2), c, dim_draw(ck, 3, 6), dim_draw(ck, 3, 6)),
                  (dim_draw(ck, 1, 3), c, dim_draw(ck, 1, 3), dim_draw(ck, 1, 3)))
                 for c in [dim_draw(ck, 1, 2) for _ in range(3)]]
    drawn.sort(key=lambda c: size_of(c[0]) * size_of(c[1]))
    return fixed + drawn


def conv_kernel(ck, d):
    name = "tensor_conv%dd" % d
    try:
        return ck.own("fast_conv", name), name
    except RuntimeError:
        return ck.own("fast_conv", "_" + name), "_" + name


def conv_forward(ck, r, d):
    fn, name = conv_kernel(ck, d)
    cases = conv_cases(ck, d)

    def one(c):
        ishape, wshape = c
        # the first case is MiniTorch's worked example: input 0, 1, 2, ..., weight 1, 2, 3
        vals = [float(i) for i in range(size_of(ishape))] if c == cases[0] else \
            draws(ck, size_of(ishape))
        wvals = [1.0, 2.0, 3.0] if d == 1 and wshape == (1, 1, 3) else draws(ck, size_of(wshape))
        out_shape = (ishape[0], wshape[0]) + tuple(ishape[2:])
        conv_call(ck, fn, name, out_shape, (ishape, vals, contiguous_strides(ishape)),
                  (wshape, wvals, contiguous_strides(wshape)), False)

    run_cases(r, "forward", cases, one)


def conv_backward(ck, r, d):
    """the two calls of MiniTorch's Conv1dFun/Conv2dFun backward: the weight's gradient as a
    convolution of the permuted input by the permuted output gradient, and the input's as one
    of the output gradient by the permuted weight anchored the other way (reverse=True)"""
    fn, name = conv_kernel(ck, d)
    swap = [1, 0] + list(range(2, d + 2))

    def one(c):
        ishape, wshape = c
        B, C = ishape[0], ishape[1]
        O = wshape[0]
        gshape = (B, O) + tuple(ishape[2:])
        x, w, g = draws(ck, size_of(ishape)), draws(ck, size_of(wshape)), draws(ck, size_of(gshape))
        # grad_weight = conv(input.permute(1, 0, ...), grad_output.permute(1, 0, ...))
        xs, xt = permuted([ishape[i] for i in swap], permute_vals(ishape, x, swap), swap)
        gs, gt = permuted([gshape[i] for i in swap], permute_vals(gshape, g, swap), swap)
        conv_call(ck, fn, name, (C, O) + tuple(wshape[2:]),
                  ([ishape[i] for i in swap], xs, xt), ([gshape[i] for i in swap], gs, gt), False)
        # grad_input = conv(grad_output, weight.permute(1, 0, ...), reverse=True)
        ws, wt = permuted([wshape[i] for i in swap], permute_vals(wshape, w, swap), swap)
        conv_call(ck, fn, name, ishape, (gshape, g, contiguous_strides(gshape)),
                  ([wshape[i] for i in swap], ws, wt), True)

    run_cases(r, "backward", conv_cases(ck, d), one)


def permute_vals(shape, vals, order):
    """the row-major values of the tensor (shape, vals) permuted by order"""
    pshape = [shape[o] for o in order]
    strides = contiguous_strides(shape)
    pstrides = [strides[o] for o in order]
    return [vals[layout(pshape, pstrides, i)] for i in range(len(vals))]


def task_4_1(ck, r, part):
    for name, test in [("forward", conv_forward), ("backward", conv_backward)]:
        if part is None or part == name:
            test(ck, r, 1)


def task_4_2(ck, r, part):
    for name, test in [("forward", conv_forward), ("backward", conv_backward)]:
        if part is None or part == name:
            test(ck, r, 2)


# Tasks 4.3 and 4.4: functions of tensors. Each case is an input of check's own drawn so that no
# two values of a window or reduced dim are equal (an argmax is then one element), and an
# upstream gradient G: backward() from (f(input) * G).sum() must leave G's share on each input.


def distinct(ck, n, scale=0.1):
    vals, seen = [], set()
    while len(vals) < n:
        v = round(ck.draw() * scale, 3)
        if v not in seen:
            seen.add(v)
            vals.append(v)
    return vals


def read(ck, t, what):
    v = ck.values(t)
    if v is None:
        raise Failure("%s is %s, not a tensor" % (what, show(t)))
    return list(v[0]), v[1]


def compare(got_shape, got, want_shape, want, what):
    if list(got_shape) != list(want_shape):
        raise Failure("%s has shape %s, expected %s" % (what, show(tuple(got_shape)),
                                                        show(tuple(want_shape))))
    for i in range(len(want)):
        if not close(got[i], want[i]):
            raise Failure("%s at %s is %s, expected %s" % (what, show(tuple(row_major(i, want_shape))),
                                                          show(got[i]), show(round(want[i], 6))))


def input_grad(ck, f, shape, vals, out_shape, gvals, what):
    """the input's gradient after backward() from (f(input) * G).sum(), G of out_shape"""
    x = ck.tensor(vals, tuple(shape), True)
    out = call(ck, f, (x,), what)
    read(ck, out, what)
    G = ck.tensor(gvals, tuple(out_shape))
    call(ck, lambda: (out * G).sum().backward(), (), "backward() through " + what)
    g = ck.values(x, True)
    if g is None:
        raise Failure("after backward() through %s the input has no gradient: build it from "
                      "tensor operations (or a Function with a backward)" % what)
    return list(g[0]), g[1]


def windows(shape, kernel):
    """for each pooled cell (row-major), the row-major positions of its window"""
    B, C, H, W = shape
    kh, kw = kernel
    out = []
    for b in range(B):
        for c in range(C):
            for i in range(H // kh):
                for j in range(W // kw):
                    out.append([((b * C + c) * H + i * kh + di) * W + j * kw + dj
                                for di in range(kh) for dj in range(kw)])
    return out


def pool_cases(ck):
    """(input shape, kernel): MiniTorch's (1, 1, 4, 4) with its three kernels, then drawn"""
    cases = [((1, 1, 4, 4), (2, 2)), ((1, 1, 4, 4), (2, 1)), ((1, 1, 4, 4), (1, 2))]
    for _ in range(4):
        kh, kw = dim_draw(ck, 1, 3), dim_draw(ck, 1, 3)
        cases.append(((dim_draw(ck, 1, 2), dim_draw(ck, 1, 3), kh * dim_draw(ck, 1, 3),
                       kw * dim_draw(ck, 1, 3)), (kh, kw)))
    return cases


def nn_tile(ck, r):
    tile = ck.own("nn", "tile")

    def one(c):
        shape, kernel = c
        vals = distinct(ck, size_of(shape))
        what = "tile(input %s, %s)" % (show(tuple(shape)), show(tuple(kernel)))
        res = call(ck, tile, (ck.tensor(vals, shape), kernel), "your tile")
        if type(res) is not tuple or len(res) != 3:
            raise Failure("%s returned %s, expected (tensor, new_height, new_width)"
                          % (what, show(res)))
        nh, nw = shape[2] // kernel[0], shape[3] // kernel[1]
        if res[1] != nh or res[2] != nw:
            raise Failure("%s gave new height and width %s, %s, expected %d, %d"
                          % (what, show(res[1]), show(res[2]), nh, nw))
        got_shape, got = read(ck, res[0], what)
        want = [vals[p] for w in windows(shape, kernel) for p in w]
        compare(got_shape, got, (shape[0], shape[1], nh, nw, kernel[0] * kernel[1]), want,
                what + "'s tensor")

    run_cases(r, "tile", pool_cases(ck), one)


def pool_test(ck, r, name, reduce, route):
    """avgpool2d or maxpool2d: values from each window (reduce), the gradient of each input
    from its window's share of G (route(window values, g) -> one share per cell)"""
    fn = ck.own("nn", name)

    def one(c):
        shape, kernel = c
        vals = distinct(ck, size_of(shape))
        what = "%s(input %s, %s)" % (name, show(tuple(shape)), show(tuple(kernel)))
        wins = windows(shape, kernel)
        out_shape = (shape[0], shape[1], shape[2] // kernel[0], shape[3] // kernel[1])
        got_shape, got = read(ck, call(ck, fn, (ck.tensor(vals, shape), kernel), "your " + name),
                              what)
        compare(got_shape, got, out_shape, [reduce([vals[p] for p in w]) for w in wins], what)
        gvals = distinct(ck, size_of(out_shape))
        gshape, g = input_grad(ck, lambda x: fn(x, kernel), shape, vals, out_shape, gvals, what)
        want = [0.0] * len(vals)
        for w, gv in zip(wins, gvals):
            for p, share in zip(w, route([vals[p] for p in w], gv)):
                want[p] += share
        compare(gshape, g, shape, want, "the input's gradient through " + what)

    run_cases(r, name, pool_cases(ck), one)


def nn_avgpool2d(ck, r):
    pool_test(ck, r, "avgpool2d", lambda w: sum(w) / len(w), lambda w, g: [g / len(w)] * len(w))


def nn_maxpool2d(ck, r):
    pool_test(ck, r, "maxpool2d", max,
              lambda w, g: [g if v == max(w) else 0.0 for v in w])


def dim_cases(ck):
    """(shape, dim): MiniTorch's (2, 3, 4) along each dim, then drawn"""
    cases = [((2, 3, 4), d) for d in range(3)]
    for _ in range(3):
        shape = tuple(dim_draw(ck, 1, 4) for _ in range(dim_draw(ck, 1, 3)))
        cases.append((shape, dim_draw(ck, 0, len(shape) - 1)))
    cases.sort(key=lambda c: size_of(c[0]))
    return cases


def lines_along(shape, dim):
    """for each cell of the result with dim of size 1 (row-major), the positions along dim"""
    out_shape = list(shape)
    out_shape[dim] = 1
    strides = contiguous_strides(shape)
    out = []
    for i in range(size_of(out_shape)):
        base = sum(a * s for a, s in zip(row_major(i, out_shape), strides))
        out.append([base + k * strides[dim] for k in range(shape[dim])])
    return out_shape, out


def along_test(ck, r, name, forward, backward, keep, scale=0.1):
    """a function f(input, dim) of each line along dim: forward(line) -> the line's results
    (one when keep is False: dim kept with size 1), backward(line, g) -> the line's gradient"""
    fn = ck.own("nn", name)

    def one(c):
        shape, dim = c
        vals = distinct(ck, size_of(shape), scale)
        what = "%s(input %s, %d)" % (name, show(tuple(shape)), dim)
        red_shape, lines = lines_along(shape, dim)
        out_shape = shape if keep else red_shape
        got_shape, got = read(ck, call(ck, fn, (ck.tensor(vals, shape), dim), "your " + name),
                              what)
        want = [0.0] * size_of(out_shape)
        for i, line in enumerate(lines):
            res = forward([vals[p] for p in line])
            for k, v in enumerate(res):
                want[line[k] if keep else i] = v
        compare(got_shape, got, out_shape, want, what)
        if backward is None:
            return
        gvals = distinct(ck, size_of(out_shape))
        gshape, g = input_grad(ck, lambda x: fn(x, dim), shape, vals, out_shape, gvals, what)
        wantg = [0.0] * len(vals)
        for i, line in enumerate(lines):
            gl = [gvals[p] for p in line] if keep else gvals[i]
            for p, share in zip(line, backward([vals[p] for p in line], gl)):
                wantg[p] = share
        compare(gshape, g, shape, wantg, "the input's gradient through " + what)

    run_cases(r, name, dim_cases(ck), one)


def softmax_ref(line):
    m = max(line)
    e = [math.exp(v - m) for v in line]
    s = sum(e)
    return [v / s for v in e]


def nn_argmax(ck, r):
    along_test(ck, r, "argmax", lambda l: [1.0 if v == max(l) else 0.0 for v in l], None, True)


def nn_max(ck, r):
    along_test(ck, r, "max", lambda l: [max(l)],
               lambda l, g: [g if v == max(l) else 0.0 for v in l], False)


def nn_softmax(ck, r):
    def back(l, g):
        s = softmax_ref(l)
        dot = sum(a * b for a, b in zip(s, g))
        return [si * (gi - dot) for si, gi in zip(s, g)]
    along_test(ck, r, "softmax", softmax_ref, back, True, 0.05)


def nn_logsoftmax(ck, r):
    def fwd(l):
        m = max(l)
        lse = m + math.log(sum(math.exp(v - m) for v in l))
        return [v - lse for v in l]

    def back(l, g):
        s = softmax_ref(l)
        total = sum(g)
        return [gi - si * total for si, gi in zip(s, g)]
    along_test(ck, r, "logsoftmax", fwd, back, True)


def nn_dropout(ck, r):
    dropout = ck.own("nn", "dropout")

    def one(c):
        shape, rate, ignore = c
        vals = [abs(v) + 1.0 for v in distinct(ck, size_of(shape))]
        what = "dropout(input %s, %s%s)" % (show(tuple(shape)), show(rate),
                                            ", ignore=True" if ignore else "")
        args = (ck.tensor(vals, shape), rate) + ((True,) if ignore else ())
        got_shape, got = read(ck, call(ck, dropout, args, "your dropout"), what)
        if list(got_shape) != list(shape):
            raise Failure("%s has shape %s, expected %s" % (what, show(tuple(got_shape)),
                                                            show(tuple(shape))))
        kept = 0
        for i, (g, v) in enumerate(zip(got, vals)):
            if g != 0.0 and not close(g, v):
                raise Failure("%s at %s is %s: a position is dropped (0.0) or keeps its value %s"
                              % (what, show(tuple(row_major(i, shape))), show(g), show(v)))
            kept += g != 0.0
        n = len(vals)
        if ignore or rate == 0.0:
            if kept != n:
                raise Failure("%s dropped %d of %d positions, expected none" % (what, n - kept, n))
        elif rate == 1.0:
            if kept:
                raise Failure("%s kept %d of %d positions, expected none" % (what, kept, n))
        elif abs(kept / n - (1.0 - rate)) > 0.1:  # 1000 positions: 0.1 is over six sigmas
            raise Failure("%s kept %d of %d positions, expected about %d (each kept with "
                          "probability 1 - rate)" % (what, kept, n, round(n * (1.0 - rate))))

    run_cases(r, "dropout", [((2, 3), 0.0, False), ((2, 3), 1.0, False), ((2, 3), 1.0, True),
                             ((10, 100), 0.5, False), ((10, 100), 0.25, False)], one)


def task_4_3(ck, r, part):
    for name, test in [("tile", nn_tile), ("avgpool2d", nn_avgpool2d)]:
        if part is None or part == name:
            test(ck, r)


def task_4_4(ck, r, part):
    for name, test in [("argmax", nn_argmax), ("max", nn_max), ("softmax", nn_softmax),
                       ("logsoftmax", nn_logsoftmax), ("maxpool2d", nn_maxpool2d),
                       ("dropout", nn_dropout)]:
        if part is None or part == name:
            test(ck, r)


# ---- the tasks --------------------------------------------------------------------------------

OPS_NAMES = [o[0] for o in OPS]
MODULE1 = "autodiff.py, scalar_functions.py and scalar.py"
# each task: its tests, the files they test (as the report names them), its parts
TASKS = {
    "0.1": (task_0_1, "operators.py", OPS_NAMES),
    "0.2": (task_0_2, "operators.py", [p[0] for p in PROPS]),
    "0.3": (task_0_3, "operators.py", ["map", "zipWith", "reduce", "negList", "addLists", "sum",
                                       "prod"]),
    "0.4": (task_0_4, "module.py", ["modules", "train", "eval", "named_parameters", "parameters"]),
    "1.1": (task_1_1, "autodiff.py", ["central_difference"]),
    "1.2": (task_1_2, MODULE1, FUNCTIONS),
    "1.3": (task_1_3, MODULE1, ["chain_rule"]),
    "1.4": (task_1_4, MODULE1, ["topological_sort", "backpropagate"] + FUNCTIONS),
    "2.1": (task_2_1, "tensor_data.py", ["index_to_position", "to_index", "permute"]),
    "2.2": (task_2_2, "tensor_data.py", ["shape_broadcast", "broadcast_index"]),
    "2.3": (task_2_3, "tensor_functions.py, tensor_ops.py and tensor.py",
            ["map", "zip", "reduce"] + TENSOR_FUNCTIONS),
    "2.4": (task_2_4, "tensor_functions.py, tensor_ops.py and tensor.py",
            ["mul", "sigmoid", "relu", "log", "exp", "lt", "eq", "permute"]),
    "1.5": (task_1_5, "Network and Linear", ["Linear", "Network", "training"]),
    "2.5": (task_2_5, "Network and Linear", ["Linear", "Network", "training"]),
    "4.1": (task_4_1, "_tensor_conv1d", ["forward", "backward"]),
    "4.2": (task_4_2, "_tensor_conv2d", ["forward", "backward"]),
    "4.3": (task_4_3, "nn.py", ["tile", "avgpool2d"]),
    "4.4": (task_4_4, "nn.py", ["argmax", "max", "softmax", "logsoftmax", "maxpool2d",
                                "dropout"]),
}


def run(task, part, ck):
    """The report of check(task, part): (table, failures, passed, failed, first failed, the
    files tested), or the message of the ValueError for a part the task does not have."""
    if part is not None and part not in TASKS[task][2]:
        names = ['"' + p + '"' for p in TASKS[task][2]]
        listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        return 'check("%s") has the parts %s, not "%s"' % (task, listed, part)
    r = Report()
    TASKS[task][0](ck, r, part)
    return "\n".join(r.lines), "\n".join(r.fails), r.passed, r.failed, r.first, TASKS[task][1]
