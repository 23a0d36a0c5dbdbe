d = {"a": 1, (1, 2): [3], 2.5: None}
d["b"] = d.get("a", 0) + 1
d[1, 2] += [4]
for k, v in d.items():
    print(k, v, k in d, v is None, v is not None)
e = dict(d, z=1)
e.update([("q", 2)], r=3)
print(e.pop("q"), e.setdefault("s", []), e.popitem(), {k: v for k, v in e.items() if k}, e == d)
xs = list(range(10))
print(xs[2:5], xs[::-1], xs[-3:], xs[1:8:3], "héllo"[::2], (1, 2, 3)[1:], range(9)[2::3])
xs[1:3] = (1, 2)
xs[::2] = range(len(xs[::2]))
xs[:] = [x * x for x in xs if x for y in range(2)]
print(sum(x for x in xs), [[c for c in s] for s in ["ab", "c"]], tuple(i for i in "xy"))
w = 6
print(f"{w:>{w}.2f}|{'s'!r:^9}|{w=}|{{}}|{3.5:e}|{255:#x}|{1234567:,}|{0.25:.1%}", F'{w}' "x")
print("{} {:>5} {name!r}".format(1, 2.5, name="n"), format(7, "08b"))
d[[1]] = 2
