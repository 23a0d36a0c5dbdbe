# print's sep and end, str versus repr, display() of every kind of value, the cell's result
print(1, 2, sep="-", end="!\n")
# expect: 1-2!
print("a", [1, "b", 2.0, true, none], ["c\td"])
# expect: a [1, 'b', 2.0, True, None] ['c\td']
# bools and none as Python prints them, whichever spelling the code uses: print, str, repr, lists
print(True, False, None, true, false, none)
# expect: True False None True False None
print("x=" + str(True), str(none), repr(False), str([false, [None]]), 1 < 2)
# expect: x=True None False [False, [None]] True
print()
# expect:
print("no newline", end="")
print(" then more")
# expect: no newline then more
display("text")
# expect: 'text'
display(1.5)
display(2)
display(-0.0)
display(1e20)
# expect: 1.5
# expect: 2
# expect: -0.0
# expect: 1e+20
display([1, "a", [none]])
display(true)
display(none)
display(range(3))
# expect: [1, 'a', [None]]
# expect: True
# expect: None
# expect: range(0, 3)
def f(a, b=2):
    return a
display(f)
display(print)
display(ones(2).sum)
# expect: <function f(a, b=...)>
# expect: <built-in function print>
# expect: <bound method tensor.sum>
# the value of the last expression is the cell's result
6 * 7
# expect: 42
