# A function's reads of globals and builtins see every change made since its last call: a global
# rebound, defined over a builtin, deleted, the globals grown to many names; in a cell's session
# and in a package file's module. The evaluator remembers where each read found its name; these
# are the changes that must make it look again.
def show():
    return [x, max(1, 2), len("abc")]


x = 1
print(show(), show())
# expect: [1, 2, 3] [1, 2, 3]
x = 2
print(show())
# expect: [2, 2, 3]


def max(a, b):
    return "mine"


print(show())
# expect: [2, 'mine', 3]
del max
print(show())
# expect: [2, 2, 3]
# many new names, so that the session's table of names grows and moves every slot
g0 = g1 = g2 = g3 = g4 = g5 = g6 = g7 = g8 = g9 = g10 = g11 = g12 = g13 = g14 = g15 = g16 = g17 = g18 = g19 = g20 = g21 = g22 = g23 = g24 = g25 = g26 = g27 = g28 = g29 = g30 = g31 = g32 = g33 = g34 = g35 = g36 = g37 = g38 = g39 = g40 = g41 = g42 = g43 = g44 = g45 = g46 = g47 = g48 = g49 = g50 = g51 = g52 = g53 = g54 = g55 = g56 = g57 = g58 = g59 = g60 = g61 = g62 = g63 = g64 = g65 = g66 = g67 = g68 = g69 = 299
print(show(), g69)
# expect: [2, 2, 3] 299
x = 3
print(show())
# expect: [3, 2, 3]
del x
try:
    show()
except NameError as e:
    print(type(e).__name__)
# expect: NameError
x = 4
print(show())
# expect: [4, 2, 3]


def loop():
    total = 0
    for i in range(3):
        total += step
    return total


step = 1
print(loop())
# expect: 3
step = 10
print(loop())
# expect: 30
# %%
%%minitorch_file globalsfile.py
limit = 5


def clip(v):
    return min(v, limit)


def read_later():
    return later


def shadow():
    return abs(-1)


def set_limit(n):
    global limit
    limit = n


def define_later():
    global later
    later = "defined"


def define_abs():
    global abs

    def abs(v):
        return "module abs"


def drop_abs():
    global abs
    del abs
# %%
from minitorch.globalsfile import clip, define_abs, define_later, drop_abs, read_later, set_limit
from minitorch.globalsfile import shadow

print(clip(9), shadow())
# expect: 5 1
set_limit(7)
print(clip(9))
# expect: 7
try:
    read_later()
except NameError as e:
    print(type(e).__name__)
# expect: NameError
define_later()
print(read_later())
# expect: defined
define_abs()
print(shadow())
# expect: module abs
drop_abs()
print(shadow())
# expect: 1
# %%
%%minitorch_file globalsfile.py
limit = 2


def clip(v):
    return min(v, limit)
# %%
# the file written again runs in its module again, as importlib.reload does: the clip imported
# before reads the module's limit as it is now
import minitorch.globalsfile as again

print(clip(9), again.clip(9))
# expect: 2 2
