# f-strings and format(): fields, conversions, format specs (Python's mini-language), nested
# specs, {{ }}, {x=}, adjacent literals. Expected lines worked out with python3.
x = 3.14159
n = 42
name = "Ada"
print(f"pi is {x:.3f}, n={n:5d}|{n:<5}|{n:^7}|{name!r} {name!s:>6}")
# expect: pi is 3.142, n=   42|42   |  42   |'Ada'    Ada

print(f"{{literal}} {n:,} {1234567:,} {x:e} {0.25:%} {x:10.2f}|")
# expect: {literal} 42 1,234,567 3.141590e+00 25.000000%       3.14|

w = 8
print(f"{x:{w}.2f}|{name:>{w}}|{name:*^{w}}|")
# expect:     3.14|     Ada|**Ada***|

print(F"{n}" f"{n + 1}" "x" f'{[1, 2]}' "y", "a" f"{n}")
# expect: 4243x[1, 2]y a42

print(f"{'nested'} {n * 2 if n else 0} {len(name)} {[i for i in range(3)]}")
# expect: nested 84 3 [0, 1, 2]

d = {"a": 1}
print(f"{d['a']} {d} {(1, 2)} {None} {True} {n!r:>4} {n, name}")
# expect: 1 {'a': 1} (1, 2) None True   42 (42, 'Ada')

print(f"""triple {n}
line2 {name}""")
# expect: triple 42
# expect: line2 Ada

print(format(3.5, ".2f"), format(255, "#x"), format("s", ">3"), format(7), format([1]))
# expect: 3.50 0xff   s 7 [1]

print(f"{-0.5:+.1f} {7:+d} {7: d} {-7:08d} {3.0} {1e20} {0.1 + 0.2} {-12.5:010.2f}")
# expect: -0.5 +7  7 -0000007 3.0 1e+20 0.30000000000000004 -000012.50

print(f"{n:b} {n:o} {n:X} {n:#b} {65:c} {1e-7} {123.0:.3} {2.0:.3} {1234.5:,} {5:e}")
# expect: 101010 52 2A 0b101010 A 1e-07 1.23e+02 2.0 1,234.5 5.000000e+00

print(f"{f'{n}'}", f"a{{b}}c", f"{n=} {name = } {x=:.2f} {n+1=!s}")
# expect: 42 a{b}c n=42 name = 'Ada' x=3.14 n+1=43

print(f"{True} {True:>5} {False:d} {1.5:g} {1e16:g} {0.0001:g} {12:%} {1234567:_} {255:_b}")
# expect: True     1 0 1.5 1e+16 0.0001 1200.000000% 1_234_567 1111_1111

print(f"{'é':>3}|{'abc':.2}|{'abc':^7}|{3:x<5}|{float('inf'):>6}|{float('nan'):F}")
# expect:   é|ab|  abc  |3xxxx|   inf|NAN

epoch, loss, correct = 10, 0.123456, 48
print(f"Epoch {epoch:3d} loss {loss:.4f} correct {correct}/{50} ({correct / 50:.0%})")
# expect: Epoch  10 loss 0.1235 correct 48/50 (96%)



print("{} {}".format(1, "a"), "{0}-{1}-{0}".format("x", "y"), "{name}!".format(name="Ada"))
# expect: 1 a x-y-x Ada!

print("{:.2f} {:>6} {:<4}|".format(3.14159, "r", 7), "{0!r:>5}".format("a"), "{:{}}".format(1, 5))
# expect: 3.14      r 7   |   'a'     1

print("a {{b}} {0:.2f} {name!r}".format(3.14159, name="x"), "{}".format([1, (2,)]))
# expect: a {b} 3.14 'x' [1, (2,)]



print(r"a\nb", R'c\'d', r"\\", len(r"\d+"), r"""x\y""", u"plain", r"" == "")

# expect: a\nb c\'d \\ 3 x\y plain True
