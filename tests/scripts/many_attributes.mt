# Instances, classes and package globals with many names (past the few a scan serves): setting,
# reading, deleting and setting again keep every name's value and the order they were set in.
class Many:
    pass
m = Many()
for i in range(60):
    setattr(m, f"a{i}", i * i)
for i in range(0, 60, 3):
    delattr(m, f"a{i}")
m.a0 = "back"
print([k for k in vars(m)][:6], len(vars(m)), m.a59, m.a1, m.a0, hasattr(m, "a3"))
print(sum(getattr(m, f"a{i}") for i in range(60) if i % 3), list(vars(m))[-1])

class Big:
    def __init__(self):
        self.x = 1
for i in range(30):
    setattr(Big, f"m{i}", i)
b = Big()
print(b.m29, Big.m0, b.x, [getattr(b, f"m{i}") for i in range(0, 30, 7)])
del Big.m5
print(hasattr(b, "m5"), b.m6)
# expect: ['a1', 'a2', 'a4', 'a5', 'a7', 'a8'] 41 3481 1 back False
# expect: 47980 a0
# expect: 29 0 1 [0, 7, 14, 21, 28]
# expect: False 6
