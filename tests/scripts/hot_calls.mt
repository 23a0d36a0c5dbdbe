# The calls a call site runs with no binding step, in loops as topological_sort and
# backpropagate make them: xs.append(v), xs.pop(), s.add(k), d.pop(k[, default]), len(x) of a
# list, a tuple, a dict, a set and the rest, list(x) of a list, a tuple and the rest (a new
# list each time); and a user function given fewer arguments than it
# has parameters, the rest taking their defaults (Scalar(v)), called directly, as a method, as a
# class's __init__ and with *args. The same site sees receivers of other types in turn, and the
# errors are Python's. Each expectation is what CPython prints.


class Key:
    def __init__(self, k):
        self.k = k

    def __hash__(self):
        return hash(self.k)

    def __eq__(self, other):
        return isinstance(other, Key) and other.k == self.k


class Sized:
    def __len__(self):
        return 7


def error(f):
    try:
        f()
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)
    return "no error"


def kind(f):
    try:
        f()
    except Exception as e:
        return type(e).__name__
    return "no error"


def stack_walk(n):
    stack, post, done = [[0, 0]], [], set()
    while stack:
        top = stack[-1]
        if top[1] < 2 and top[0] * 2 + top[1] + 1 < n:
            child = top[0] * 2 + top[1] + 1
            top[1] += 1
            if child not in done:
                done.add(child)
                stack.append([child, 0])
        else:
            post.append(stack.pop()[0])
    return post, len(done)


print(stack_walk(7))
# expect: ([3, 4, 1, 5, 6, 2, 0], 6)

pending = {Key(1): 0.5, "a": 1.5}
got = [pending.pop(Key(1), 0.0), pending.pop(Key(1), 0.0), pending.pop("a"), len(pending)]
print(got)
# expect: [0.5, 0.0, 1.5, 0]
print(error(lambda: pending.pop("a")))
# expect: KeyError: 'a'
print(error(lambda: pending.pop([1])), pending.pop([1], "empty"))
# expect: KeyError: [1] empty
pending["b"] = 2.5
print(error(lambda: pending.pop([1])), pending.pop("b", 0.0))
# expect: TypeError: unhashable type: 'list' 2.5
print(kind(lambda: pending.pop()))
# expect: TypeError
print(error(lambda: [].pop()))
# expect: IndexError: pop from empty list
print(error(lambda: set().add([1])))
# expect: TypeError: unhashable type: 'list'

# one site, receivers of several types in turn
out = []
for c in ([1, 2], {3: "x"}, (4, 5), {6, 7}, "ab", range(3), Sized(), {8: 9}):
    out.append(len(c))
    out.append(kind(lambda: c.pop()) if type(c) is dict else error(lambda: c.pop()))
    out.append(error(lambda: c.add(1)))
    out.append(error(lambda: c.append(2)))
for line in out:
    print(line)
# expect: 2
# expect: no error
# expect: AttributeError: 'list' object has no attribute 'add'
# expect: no error
# expect: 1
# expect: TypeError
# expect: AttributeError: 'dict' object has no attribute 'add'
# expect: AttributeError: 'dict' object has no attribute 'append'
# expect: 2
# expect: AttributeError: 'tuple' object has no attribute 'pop'
# expect: AttributeError: 'tuple' object has no attribute 'add'
# expect: AttributeError: 'tuple' object has no attribute 'append'
# expect: 2
# expect: no error
# expect: no error
# expect: AttributeError: 'set' object has no attribute 'append'
# expect: 2
# expect: AttributeError: 'str' object has no attribute 'pop'
# expect: AttributeError: 'str' object has no attribute 'add'
# expect: AttributeError: 'str' object has no attribute 'append'
# expect: 3
# expect: AttributeError: 'range' object has no attribute 'pop'
# expect: AttributeError: 'range' object has no attribute 'add'
# expect: AttributeError: 'range' object has no attribute 'append'
# expect: 7
# expect: AttributeError: 'Sized' object has no attribute 'pop'
# expect: AttributeError: 'Sized' object has no attribute 'add'
# expect: AttributeError: 'Sized' object has no attribute 'append'
# expect: 1
# expect: TypeError
# expect: AttributeError: 'dict' object has no attribute 'add'
# expect: AttributeError: 'dict' object has no attribute 'append'

import numpy as np

parents = (Key(1), Key(2))
copies = [list(parents), list(list(parents)), list([]), list(()), list("ab"), list(range(3)),
          list({5: 6}), list(k * 2 for k in (1, 2)), list(np.array([1.5, 2.5])), list([[1], 2])]
print([len(c) for c in copies], copies[0][1] is parents[1], copies[1] is copies[0], copies[2:8])
# expect: [2, 2, 0, 0, 2, 3, 1, 2, 2, 2] True False [[], [], ['a', 'b'], [0, 1, 2], [5], [2, 4]]
inner = copies[9]
again = list(inner)
again[0].append(3)
again.append(4)
print(inner, again, [float(x) for x in copies[8]])
# expect: [[1, 3], 2] [[1, 3], 2, 4] [1.5, 2.5]

# the list appended to is the one every name sees; pop takes an index too; a list given
# itself is refused, as by the bound method
xs = [1]
ys = xs
for i in range(3):
    xs.append(i * i)
print(ys, ys.pop(), ys.pop(0), xs)
# expect: [0, 1] 4 1 [0, 1]
push = xs.append
push(9)
print(xs, xs.append(*[3]), xs)
# expect: [0, 1, 9, 3] None [0, 1, 9, 3]


# defaults: the parameters a call leaves out take them, evaluated once when the def ran
def f(a, b=10, c=[]):
    c.append(a)
    return a + b, len(c)


class S:
    count = 0

    def __init__(self, v, back=None, name=None):
        S.count += 1
        self.v = v
        self.name = str(S.count) if name is None else name
        self.back = back

    def scaled(self, k=2, *rest):
        return self.v * k


def g(x, y, z=3):
    return x * 100 + y * 10 + z


args = (1, 2)
print([f(i) for i in range(3)], f(5, 1), f(6, 2, []))
# expect: [(10, 1), (11, 2), (12, 3)] (6, 4) (8, 1)
s = S(4)
t = S(5, s)
print(s.name, t.name, t.back is s, S(6, None, "six").name, s.scaled(), s.scaled(3))
# expect: 1 2 True six 8 12
print(g(*args), g(*args, 9), g(1, *[2]))
# expect: 123 129 123
print(error(lambda: g(1)))
# expect: TypeError: g() missing 1 required positional argument: 'y'
print(error(lambda: f()))
# expect: TypeError: f() missing 1 required positional argument: 'a'
print(error(lambda: f(1, 2, [], 4)))
# expect: TypeError: f() takes from 1 to 3 positional arguments but 4 were given
print(error(lambda: S()))
# expect: TypeError: S.__init__() missing 1 required positional argument: 'v'

# d[k] read in a loop, as backpropagate reads its pending derivatives: int, str, tuple, float
# and instance keys, a key made by a call, a missing key, an unhashable one, d[a, b] as the key
# (a, b), a slice, and one site given a dict, a list and an instance in turn
ids = {i: i * 0.5 for i in range(6)}
table = {"a": 1, (1, 2): "pair", 2.0: "two", Key(3): "three", True: "yes"}
total = 0.0
for i in range(6):
    total = total + ids[i]
print(total, table["a"], table[(1, 2)], table[1, 2], table[2], table[2.0], table[Key(3)])
# expect: 7.5 1 pair pair two two three
print(table[1], table[len("a")], ids[int("4")])
# expect: yes yes 2.0
print(error(lambda: ids[99]), error(lambda: table[(1, 3)]), error(lambda: table["b"]))
# expect: KeyError: 99 KeyError: (1, 3) KeyError: 'b'
print(error(lambda: ids[[1]]), error(lambda: ids[1:2]), error(lambda: ids[{}]))
# expect: TypeError: unhashable type: 'list' TypeError: unhashable type: 'slice' TypeError: unhashable type: 'dict'
print(error(lambda: ids[undefined_name]), error(lambda: ids[1 // 0]))
# expect: NameError: name 'undefined_name' is not defined ZeroDivisionError: integer division or modulo by zero


class Items:
    def __getitem__(self, k):
        return ("item", k)


seen = []
for box in (ids, [10, 11, 12], Items(), {0: "zero"}):
    seen.append(box[0])
print(seen)
# expect: [0.0, 10, ('item', 0), 'zero']
