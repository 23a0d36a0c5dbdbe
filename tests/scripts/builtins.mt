# the builtin functions on plain values
print(len("héllo"), len([1, [2, 3]]), len(range(2, 10, 3)), list(range(2, 10, 3)))
# expect: 5 2 3 [2, 5, 8]
print(min(3, 1, 2), max([4, 9, 2]), min("b", "a"), abs(-3), abs(-2.5))
# expect: 1 9 a 3 2.5
# round halves to even, as Python does
print(round(2.5), round(3.5), round(-0.5), round(1.2345, 2), round(7))
# expect: 2 4 0 1.23 7
print(str(1.0), float("1.5"), int("42"), int(-2.7), int(3.9), float(2), bool(""), bool([0]))
# expect: 1.0 1.5 42 -2 3 2.0 False True
print(type(1), type(1.5), type("a"), type([]), type(none), type(true), type(ones(1)), type(len))
# expect: <class 'int'> <class 'float'> <class 'str'> <class 'list'> <class 'NoneType'> <class 'bool'> <class 'tensor'> <class 'builtin_function_or_method'>
print(repr("it's"), repr(1.0), str("a"), sum([1, 2, 3]), sum(range(5), 10), sum([0.5, 0.25]))
# expect: "it's" 1.0 a 6 20 0.75
print(list("abc"), list(range(3)), float("inf"), float("-inf"), float("nan"))
# expect: ['a', 'b', 'c'] [0, 1, 2] inf -inf nan
