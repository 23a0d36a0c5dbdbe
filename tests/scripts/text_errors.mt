# A __repr__ or __str__ that raises, or returns what is not a string: every way of making a
# value's text passes the error on at once, as CPython does (the expected lines are CPython
# 3.11's output of the script up to `import minitorch`), where it used to be swallowed and come
# out at a later line. Where CPython's own display falls back (a traceback's last line, IPython's
# %whos), so does the kernel: error_str_failed.mt, error_key_repr_fails.mt, %who below.
class A:
    def __repr__(self):
        raise ValueError("boom in repr")
class S:
    def __str__(self):
        raise KeyError("boom in str")
class N:
    def __str__(self):
        return 5
    def __repr__(self):
        return "N()"
class R:
    def __repr__(self):
        return 7
a = A()
s = S()
n = N()
r = R()
def t(label, f):
    try:
        v = f()
        print(label, "ok", v)
    except Exception as e:
        print(label, type(e).__name__, e)
t("repr", lambda: repr(a))
# expect: repr ValueError boom in repr
t("str", lambda: str(a))
# expect: str ValueError boom in repr
t("str of __str__", lambda: str(s))
# expect: str of __str__ KeyError 'boom in str'
t("repr without __repr__", lambda: repr(s)[:18])
# expect: repr without __repr__ ok <__main__.S object
t("str returns int", lambda: str(n))
# expect: str returns int TypeError __str__ returned non-string (type int)
t("repr returns int", lambda: repr(r))
# expect: repr returns int TypeError __repr__ returned non-string (type int)
t("str via repr returns int", lambda: str(r))
# expect: str via repr returns int TypeError __str__ returned non-string (type int)
t("print", lambda: print(a))
# expect: print ValueError boom in repr
t("print after text", lambda: print("x", 1, s))
# expect: x 1 print after text KeyError 'boom in str'
t("f-string", lambda: f"{a}")
# expect: f-string ValueError boom in repr
t("f-string !r", lambda: f"{a!r}")
# expect: f-string !r ValueError boom in repr
t("f-string !s", lambda: f"{s!s}")
# expect: f-string !s KeyError 'boom in str'
t("f-string int", lambda: f"{n}")
# expect: f-string int TypeError __str__ returned non-string (type int)
t("f-string =", lambda: f"{a=}")
# expect: f-string = ValueError boom in repr
t("f-string spec", lambda: f"{a:>10}")
# expect: f-string spec TypeError unsupported format string passed to A.__format__
t("format", lambda: "{}".format(a))
# expect: format ValueError boom in repr
t("format !r", lambda: "{!r}".format(a))
# expect: format !r ValueError boom in repr
t("format !s", lambda: "{0!s}".format(s))
# expect: format !s KeyError 'boom in str'
t("format()", lambda: format(a))
# expect: format() ValueError boom in repr
t("format() empty spec", lambda: format(s, ""))
# expect: format() empty spec KeyError 'boom in str'
t("list", lambda: str([1, a]))
# expect: list ValueError boom in repr
t("tuple", lambda: repr((a,)))
# expect: tuple ValueError boom in repr
t("dict value", lambda: repr({1: a}))
# expect: dict value ValueError boom in repr
t("dict key", lambda: str({a: 1}))
# expect: dict key ValueError boom in repr
t("nested", lambda: str([[[a]]]))
# expect: nested ValueError boom in repr
t("list of int __str__", lambda: str([n]))
# expect: list of int __str__ ok [N()]
t("exception repr", lambda: repr(ValueError(a)))
# expect: exception repr ValueError boom in repr
t("exception str", lambda: str(ValueError(a)))
# expect: exception str ValueError boom in repr
t("exception str of args", lambda: str(ValueError(a, 1)))
# expect: exception str of args ValueError boom in repr
t("list.index", lambda: [1].index(a))
# expect: list.index ValueError boom in repr
t("in", lambda: a in [1])
# expect: in ok False
try:
    raise ValueError(s)
except ValueError as e:
    print("raise", type(e).__name__, e.args[0] is s)
    # expect: raise ValueError True
try:
    assert False, s
except AssertionError as e:
    print("assert", type(e).__name__)
    # expect: assert AssertionError
try:
    {}[a]
except KeyError as e:
    print("KeyError", e.args[0] is a)
    # expect: KeyError True
try:
    x = undefined_name
except NameError as e:
    print("NameError", e)
    # expect: NameError name 'undefined_name' is not defined
import minitorch
t("display", lambda: display(a))
# expect: display ValueError boom in repr
t("Parameter repr", lambda: repr(minitorch.Parameter(a)))
# expect: Parameter repr ValueError boom in repr
t("Parameter str", lambda: str(minitorch.Parameter(s)))
# expect: Parameter str KeyError 'boom in str'
# help() describes an instance's class, as pydoc does, without its repr
t("help", lambda: help(a))
# expect: An instance of class A.
# expect:
# expect: class A
# expect:
# expect: Defined here:
# expect:   __repr__(self)
# expect:
# expect: help ok None
# IPython's %whos shows "<object with id N (str() failed)>" where str() raises
%who A
# expect: Variable  Type       Data/Info
# expect-re: a         A          <object with id [0-9]+ \(repr\(\) failed\)>
