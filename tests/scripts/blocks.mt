# nested blocks, one-line suites, pass, continuation lines inside brackets, nested defs
total = 0
for i in range(3):
    for j in range(i, 3):
        if (i + j) % 2 == 0:
            total += 10 * i + j
        else:
            pass
print(total)
# expect: 35
if total > 100: print("big")
elif total > 10: print("medium")
else: print("small")
# expect: medium
xs = [1,
      2,
      3]
s = (xs[0] +
     xs[2])
print(s, len(xs))
# expect: 4 3
n = 10; steps = 0
while n > 1:
    n = n // 2 if n % 2 == 0 else 3 * n + 1; steps += 1
print(steps)
# expect: 6
k = 0
for i in range(10, 0, -3):
    k = k * 10 + i
print(k)
# expect: 10741
def outer(x):
    def inner(y):
        return y * 2
    return inner(x) + 1
print(outer(5))
# expect: 11
for c in "ab":
    print(c)
# expect: a
# expect: b
