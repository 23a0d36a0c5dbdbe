# Attribute names are interned (one shared copy, counted): a name read from the source, a
# name built at run time (getattr/setattr with a string made by format or join) and a name of
# an attribute another object set all find the same attribute; a name whose last holder is gone
# is forgotten, and interning it again later still works. The values are CPython's.
class Thing:
    def __init__(self, k):
        self.alpha = k
        self.beta = k * 2


made = "".join(["al", "pha"])
t = Thing(3)
print(getattr(t, made), t.alpha, getattr(t, "be" + "ta"), hasattr(t, "alp" + "ha_"))
setattr(t, "ga" + "mma", 7)
print(t.gamma, sorted(vars(t)))

# many names made and dropped: the table of names grows, and names are removed from it and
# added again
objs = []
for round_ in range(3):
    o = Thing(round_)
    for i in range(2000):
        setattr(o, f"n{round_}_{i}", i)
    objs.append(o)
print(sum(getattr(objs[1], f"n1_{i}") for i in range(2000)), len(vars(objs[2])))
del objs[0]
objs.pop()
for i in range(0, 2000, 2):
    delattr(objs[0], f"n1_{i}")
print(len(vars(objs[0])), hasattr(objs[0], "n1_2"), getattr(objs[0], "n1_3"))
fresh = Thing(9)
for i in range(2000):
    setattr(fresh, f"n0_{i}", -i)
print(getattr(fresh, "n0_1999"), fresh.alpha, objs[0].n1_1999)


class Late:
    pass


Late.omega = 1
late = Late()
print(late.omega, getattr(late, "ome" + "ga"))
Late.omega = 2
print(late.omega)
# expect: 3 3 6 False
# expect: 7 ['alpha', 'beta', 'gamma']
# expect: 1999000 2002
# expect: 1002 False 3
# expect: -1999 9 1999
# expect: 1 1
# expect: 2
