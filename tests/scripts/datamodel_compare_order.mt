# The order in which comparisons ask the operands' methods, against CPython 3.11: a proper
# subclass's reflected method first (inherited or overridden), then the left operand's; a
# container's search (in, count, index, remove) puts its own item on the left of ==.

class A:
    def __init__(self, v):
        self.v = v
    def __eq__(self, other):
        print("eq of", type(self).__name__, "with", type(other).__name__)
        return NotImplemented
    def __lt__(self, other):
        print("lt of", type(self).__name__)
        return NotImplemented
    def __gt__(self, other):
        print("gt of", type(self).__name__)
        return NotImplemented

class B(A):  # inherits every method, overrides none
    pass

print(A(1) == B(2))
# expect: eq of B with A
# expect: eq of A with B
# expect: False
print(B(1) == A(2))
# expect: eq of B with A
# expect: eq of A with B
# expect: False
print(A(1) != B(2))
# expect: eq of B with A
# expect: eq of A with B
# expect: True
print(A(1) == A(2))
# expect: eq of A with A
# expect: eq of A with A
# expect: False
try:
    A(1) < B(2)
except TypeError as e:
    print(e)
# expect: gt of B
# expect: lt of A
# expect: '<' not supported between instances of 'A' and 'B'
try:
    B(1) < A(2)
except TypeError as e:
    print(e)
# expect: lt of B
# expect: gt of A
# expect: '<' not supported between instances of 'B' and 'A'

class X:
    def __lt__(self, other):
        return "X.lt"
    def __gt__(self, other):
        return "X.gt"

class Y(X):
    pass

print(X() < Y(), X() > Y(), Y() < X())
# expect: X.gt X.lt X.lt

class Base:
    def __eq__(self, other):
        print("Base.eq", type(self).__name__)
        return True

class Mid(Base):
    pass

class Leaf(Mid):
    pass

print(Base() == Leaf(), Leaf() == Mid(), Mid() == Mid())
# expect: Base.eq Leaf
# expect: Base.eq Leaf
# expect: Base.eq Mid
# expect: True True True

# != of a class with __eq__ only: object's __ne__ inverts the subclass's __eq__ first
class P:
    def __eq__(self, other):
        print("P.eq", type(self).__name__)
        return False

class Q(P):
    pass

print(P() != Q(), Q() != P())
# expect: P.eq Q
# expect: P.eq Q
# expect: True True

# a container's search: its item == the value looked for
class C:
    def __init__(self, v):
        self.v = v
    def __eq__(self, other):
        print("C.eq")
        return NotImplemented

a = A(0)
print(a in [C(1)], C(1) in [a])
# expect: C.eq
# expect: eq of A with C
# expect: eq of A with C
# expect: C.eq
# expect: False False
print(a in (C(1),), [C(1), C(2)].count(a))
# expect: C.eq
# expect: eq of A with C
# expect: C.eq
# expect: eq of A with C
# expect: C.eq
# expect: eq of A with C
# expect: False 0
try:
    [C(1)].index(a)
except ValueError as e:
    print("index:", type(e).__name__)
# expect: C.eq
# expect: eq of A with C
# expect: index: ValueError
try:
    [C(1)].remove(a)
except ValueError as e:
    print("remove:", type(e).__name__)
# expect: C.eq
# expect: eq of A with C
# expect: remove: ValueError
print(a in [a], a in [B(0)])
# expect: eq of B with A
# expect: eq of A with B
# expect: True False

# an item's __eq__ that empties the list it is in: the search stops at the new length
xs = []
class D:
    def __eq__(self, other):
        print("D.eq, list of", len(xs))
        xs.clear()
        return False
xs.extend([D(), D(), D()])
print(5 in xs, xs)
# expect: D.eq, list of 3
# expect: False []
