"""check("0.1") ... check("1.4"): what MiniTorch's tests of Modules 0 and 1 check, run on the
student's own files (their `%%minitorch_file operators.py`, `module.py`, `autodiff.py`,
`scalar_functions.py`, `scalar.py`).

The kernel runs this program (lib/check_course.c) afresh for each check, as a module that no
import reaches, and calls run(task, part, ck): ck is a module of natives that only this program
is given. ck.student(file, name) is the student's definition of name in their file (an error
that says what to write when there is none, or when it is the kernel's own); ck.call(f, args)
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


def cases_of(ck, fixed, nargs, ndraw, make=None):
    """The fixed cases, then ndraw drawn ones, smallest (in the sum of |args|) first."""
    out = [tuple(c) for c in fixed]
    drawn = []
    for _ in range(ndraw):
        c = tuple(ck.draw() for _ in range(nargs))
        drawn.append(make(c) if make else c)
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
    ("relu", 1, lambda x: x if x > 0 else 0.0, [(0.0,), (2.5,), (-2.5,)], None),
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
        [(1.0, 5.0), (-1.0, 5.0), (0.0, 5.0), (3.0, -2.0), (2.0, 0.0)],
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
        ids = set()
        for p in got:
            ids.add(id(p))
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
    fns = [
        ("x * x", 1, lambda x: x * x, lambda x: [2 * x]),
        ("x * y + y", 2, lambda x, y: x * y + y, lambda x, y: [y, x + 1]),
        ("exp(x / 50)", 1, lambda x: math.exp(x / 50), lambda x: [math.exp(x / 50) / 50]),
        ("x * y * z", 3, lambda x, y, z: x * y * z, lambda x, y, z: [y * z, x * z, x * y]),
        ("x", 1, lambda x: x, lambda x: [1.0]),
    ]

    def one(c):
        text, n, f, grad = c[0]
        vals = c[1][:n]
        want = grad(*vals)
        for arg in range(n):
            got = call(ck, lambda: cd(f, *vals, arg=arg), (), "your central_difference")
            got = number(got, "your central_difference")
            if not close(got, want[arg]):
                raise Failure(
                    "central_difference(f, %s, arg=%d) for f = lambda: %s: expected %s, got %s"
                    % (", ".join(show(v) for v in vals), arg, text, show(want[arg]), show(got))
                )

    cases = []
    for vals in cases_of(ck, [(5.0, 10.0, 2.0), (2.0, -3.0, 0.5)], 3, 8):
        cases += [(fn, [v / 10.0 for v in vals]) for fn in fns]
    run_cases(r, "central_difference", cases, one)


# MiniTorch's MathTest functions on plain floats (the expected values) and the Scalar
# expressions they are written as (what the student's Scalar computes): name, arity, the
# ScalarFunctions they go through, float form, Scalar form
def fsig(x):
    return sigmoid_ref(x)


MATH = [
    ("neg", 1, ["neg"], lambda a: -a, lambda a: -a),
    ("addConstant", 1, ["add"], lambda a: 5 + a, lambda a: 5 + a),
    ("square", 1, ["mul"], lambda a: a * a, lambda a: a * a),
    ("cube", 1, ["mul"], lambda a: a * a * a, lambda a: a * a * a),
    ("subConstant", 1, ["neg", "add"], lambda a: a - 5, lambda a: a - 5),
    ("multConstant", 1, ["mul"], lambda a: 5 * a, lambda a: 5 * a),
    ("div", 1, ["inv", "mul"], lambda a: a / 5, lambda a: a / 5),
    ("inv", 1, ["inv"], lambda a: 1.0 / (a + 3.5), lambda a: 1.0 / (a + 3.5)),
    ("sig", 1, ["sigmoid"], fsig, lambda a: a.sigmoid()),
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
        lambda a: math.log(fsig(max(max(a * 10 + 7, 0.0) * 6 + 5, 0.0) * 10)) / 50,
        lambda a: (((a * 10 + 7).relu() * 6 + 5).relu() * 10).sigmoid().log() / 50,
    ),
]

# the ScalarFunctions the student writes in Tasks 1.2 (forward) and 1.4 (backward), a part
# each (Add and Log are given whole): a part's tests are the expressions that need no other
# function of theirs, so that a mistake in one function costs that part only
FUNCTIONS = ["mul", "inv", "neg", "sigmoid", "relu", "exp", "lt", "eq"]
GIVEN = ["add", "log"]


def in_part(part, fns):
    return part is None or [f for f in fns if f not in GIVEN] == [part]


def scalar_cases(ck, nargs):
    fixed = [(0.0, 0.0)[:nargs], (1.0, 2.0)[:nargs], (-2.5, 0.5)[:nargs]]
    if nargs == 2:
        fixed.append((1.0, -4.5))  # eq2's equal case: a == b + 5.5
    return cases_of(ck, fixed, nargs, 12)


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


def wanted(parts, fns):
    return parts is None or parts in fns


def task_1_2(ck, r, part):
    ck.student("scalar_functions", "ScalarFunction")
    for name, n, fns, ref, expr in MATH:
        if not in_part(part, fns):
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

    def one(c):
        kind, a, b, d = c
        y = call(ck, Scalar, (b,), "your Scalar")
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

    cases = [("var", 5.0, 10.0, 5.0), ("const", 10.0, 5.0, 5.0)]
    for v in cases_of(ck, [], 3, 10):
        cases.append(("var" if v[2] > 0 else "const", v[0] / 10, v[1] / 10, v[2] / 10))
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

        cases = [
            cc
            for cc in scalar_cases(ck, n)
            if not kink(name, cc)
        ]
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
        text = "%s.backward(ctx, %s) after %s" % (cls_name, show(d), call_args(
            cls_name + ".forward", ["ctx"] + args))
        if len(got) != n:
            raise Failure("%s gave %d derivatives, expected %d" % (text, len(got), n))
        for i in range(n):
            if not close(number(got[i], "your " + cls_name + ".backward"), want[i]):
                raise Failure("%s: expected %s, got %s" % (text, show(want), show(tuple(got))))

    cases = [cc for cc in cases_of(ck, [(1.0, 2.0, 3.0), (-2.0, 0.5, 1.0)], 3, 14)
             if not (part == "inv" and abs(cc[0]) < 0.1) and not (part == "relu" and cc[0] == 0)]
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
