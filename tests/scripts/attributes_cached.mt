# Attribute reads of an instance that its own attributes do not answer, read in a loop, so that
# the read site's cache of the class chain serves the later ones: a class variable, a property,
# a method read as a bound method, a classmethod and a staticmethod read through the instance,
# a property whose AttributeError goes to __getattr__, the hook for a name found nowhere; then
# own attributes shadowing class variables (one, kind_ar, whose own slot is looked for only
# after the class chain, as a property's name might have it), an entry put in __dict__ under a
# property's name (the property still wins) and a class variable changed: every read after
# them follows. Each expectation is what CPython prints.
class B:
    kind = "b"
    kind_ar = "class"  # its name's hash has the property p's low 6 bits (the kernel's filter)
    def m(self):
        return "m" + self.kind
    @property
    def p(self):
        return "p" + self.kind
    @classmethod
    def cm(cls):
        return cls.__name__
    @staticmethod
    def sm(x):
        return x * 2
class C(B):
    @property
    def q(self):
        raise AttributeError("no q")
    def __getattr__(self, name):
        return "hook " + name
def f():
    out = []
    b = B()
    c = C()
    for i in range(3):
        out.append(b.kind)
        out.append(b.kind_ar)
        out.append(b.p)
        m = b.m
        out.append(m())
        out.append(b.cm())
        g = b.cm
        out.append(g())
        s = b.sm
        out.append(s(i))
        out.append(c.q)
        out.append(c.zz)
        out.append(c.p)
        if i == 1:
            b.kind = "own"
            b.kind_ar = "own"
            b.__dict__["p"] = "shadow?"
        if i == 2:
            B.kind = "class2"
    out.append(B().kind)
    return out
for x in f():
    print(x)
# expect: b
# expect: class
# expect: pb
# expect: mb
# expect: B
# expect: B
# expect: 0
# expect: hook q
# expect: hook zz
# expect: pb
# expect: b
# expect: class
# expect: pb
# expect: mb
# expect: B
# expect: B
# expect: 2
# expect: hook q
# expect: hook zz
# expect: pb
# expect: own
# expect: own
# expect: pown
# expect: mown
# expect: B
# expect: B
# expect: 4
# expect: hook q
# expect: hook zz
# expect: pb
# expect: class2
