# iter() and next(): an instance's __iter__, iterators over built-in iterables, the default at
# the end; each expectation is what CPython prints.
it = iter([1, 2, 3])
print(next(it), next(it), list(it), next(it, "end"))
# expect: 1 2 [3] end
r = iter(range(2, 5))
print(next(r), [x for x in r])
# expect: 2 [3, 4]
s = iter("ab")
print(next(s), next(s), next(s, None))
# expect: a b None
class C:
    def __init__(self):
        self.xs = [4, 5]
    def __iter__(self):
        return iter(self.xs)
print(list(C()), sum(C()), 5 in C())
# expect: [4, 5] 9 True
d = iter({"k": 1, "j": 2})
print(list(d))
# expect: ['k', 'j']
try:
    next([1])
except TypeError as e:
    print(e)
# expect: 'list' object is not an iterator
try:
    next(iter([]))
except StopIteration as e:
    print("stop", repr(e))
# expect: stop StopIteration()
xs = [1]
it = iter(xs)
xs.append(2)
print(list(it))
# expect: [1, 2]

