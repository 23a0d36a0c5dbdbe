# loops, branches, break/continue, conditional expressions, ';'
total = 0
for i in range(1, 11):
    if i % 2 == 0:
        continue
    total += i
print(total)
# expect: 25
n = 0
while true:
    n += 3
    if n > 10:
        break
print(n)
# expect: 12
for w in ["a", "bb", "ccc"]:
    print(w, len(w), "long" if len(w) > 2 else "short")
# expect: a 1 short
# expect: bb 2 short
# expect: ccc 3 long
x = 5; y = 7; print(max(x, y), min([x, y, 1]), abs(-2.5), round(2.675, 2))
# expect: 7 1 2.5 2.67
