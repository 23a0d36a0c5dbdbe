# printf-style formatting, str % args, against CPython 3.11: every expectation is what python3
# printed for the same lines. `show` prints a result, or the error as CPython words it.
def show(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__ + ":", e)

# one value, a tuple of values, the course's kind of line
x = 3.14159265
print("%.5f" % x, "%d %s" % (7, "items"), "%r" % "x", "%i|%u" % (3, 4), "loss %.3f acc %d%%" % (0.25, 97))
# expect: 3.14159 7 items 'x' 3|4 loss 0.250 acc 97%
epoch, total_loss, correct = 10, 1.23456, 48
print("Epoch %d loss %.4f correct %d/%d" % (epoch, total_loss, correct, 50))
# expect: Epoch 10 loss 1.2346 correct 48/50
s = "%s-%s"
s %= ("a", "b")
print(s, "%s" % (1, ) , "%s" % ((1, 2),), "%s" % [1, 2], "%s %s" % ("a", ("b",)), "%s" % {"a": 1})
# expect: a-b 1 (1, 2) [1, 2] a ('b',) {'a': 1}

# conversions
print("%s %r %a" % ("é", "é", "é\u20ac\U0001F600"), "%s %r" % (None, None), "%s %s" % (True, 1.0))
# expect: é 'é' '\xe9\u20ac\U0001f600' None None True 1.0
print("%d %d %d %d" % (3.99, -3.99, True, 1e20), "%x %X %o" % (255, 3054, 8), "%x %o" % (-255, -8))
# expect: 3 -3 1 100000000000000000000 ff BEE 10 -ff -10
print("%e %E %f %F" % (12345.678, 1.5, 1, float("inf")), "%g %g %g %G" % (0.0001, 1e-5, 123456789, 1e-10))
# expect: 1.234568e+04 1.500000E+00 1.000000 INF 0.0001 1e-05 1.23457e+08 1E-10
print("%c%c%c" % (72, "i", 233), "%.0f %.0e %.2f" % (2.5, 2.5, -0.0), "%f %f" % (float("nan"), -float("inf")))
# expect: Hié 2 2e+00 -0.00 nan -inf

# flags, widths, precisions
print("[%5d] [%-5d] [%05d] [%+d] [% d] [%+05d] [%03d] [% 03d]" % (42, 42, 42, 5, 5, 3, -5, 5))
# expect: [   42] [42   ] [00042] [+5] [ 5] [+0003] [-05] [ 05]
print("[%.3d] [%5.2d] [%.10d] [%#o] [%#x] [%#X] [%#5x] [%#05x] [%-#6x] [%#.3x]" % (5, 3, -5, 8, 255, 255, 255, 255, 255, 5))
# expect: [005] [   03] [-0000000005] [0o10] [0xff] [0XFF] [ 0xff] [0x0ff] [0xff  ] [0x005]
print("[%10.4f] [%-10.2f] [%010.2f] [%+.2e] [%#.0f] [%#g] [%.3g] [%05f] [%+f]" % (x, x, -x, 12345.678, 2.0, 1.0, 1234567, float("inf"), float("nan")))
# expect: [    3.1416] [3.14      ] [-000003.14] [+1.23e+04] [2.] [1.00000] [1.23e+06] [00inf] [+nan]
print("[%5s] [%-5s] [%.1s] [%10.3s] [%05s] [%.3r] [%-6r] [%3s] [%5c] [%-3c]" % ("ab", "cd", "abc", "abcdef", "ab", "abcdef", "ab", "é", "x", "y"))
# expect: [   ab] [cd   ] [a] [       abc] [   ab] ['ab] ['ab'  ] [  é] [    x] [y  ]
print("[%*d] [%-*d] [%*d] [%.*f] [%.*f] [%*.*f]" % (5, 1, 5, 1, -5, 1, 2, 1.23456, -2, 1.23456, 8, 3, x))
# expect: [    1] [1    ] [1    ] [1.23] [1] [   3.142]
print("[%-05d] [%-010.2f] [%-+5d] [%#d] [%#s] [% s] [%+s] [%.0s] [%.1c]" % (3, -x, 3, 3, "a", "a", "a", "abc", "x"))
# expect: [3    ] [-3.14     ] [+3   ] [3] [a] [a] [a] [] [x]
print("[%ld] [%hd] [%Ld] [%%] [%.100f]" % (5, 5, 5, 1.0))
# expect: [5] [5] [5] [%] [1.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000]

# a mapping: %(name)s
print("%(a)s and %(b)r" % {"a": 1, "b": "x"}, "%(x)d %(x)05.1f" % {"x": 4}, "%(a(b))s" % {"a(b)": 1})
# expect: 1 and 'x' 4 004.0 1
print("hello" % {}, "hello" % [], "hello" % (), "%%" % {}, "%s" % {})
# expect: hello hello hello % {}

# CPython's errors
show(lambda: "%d" % "x")
# expect: TypeError: %d format: a real number is required, not str
show(lambda: "%i" % None)
# expect: TypeError: %i format: a real number is required, not NoneType
show(lambda: "%x" % 1.5)
# expect: TypeError: %x format: an integer is required, not float
show(lambda: "%o" % "8")
# expect: TypeError: %o format: an integer is required, not str
show(lambda: "%f" % "x")
# expect: TypeError: must be real number, not str
show(lambda: "%e" % None)
# expect: TypeError: must be real number, not NoneType
show(lambda: "%c" % "ab")
# expect: TypeError: %c requires int or char
show(lambda: "%c" % 1.5)
# expect: TypeError: %c requires int or char
show(lambda: "%c" % -1)
# expect: OverflowError: %c arg not in range(0x110000)
show(lambda: "%c" % 0x110000)
# expect: OverflowError: %c arg not in range(0x110000)
show(lambda: "%d" % float("inf"))
# expect: OverflowError: cannot convert float infinity to integer
show(lambda: "%d" % float("nan"))
# expect: ValueError: cannot convert float NaN to integer
show(lambda: "%s %s" % (1,))
# expect: TypeError: not enough arguments for format string
show(lambda: "%s" % ())
# expect: TypeError: not enough arguments for format string
show(lambda: "%s" % (1, 2))
# expect: TypeError: not all arguments converted during string formatting
show(lambda: "hello" % 5)
# expect: TypeError: not all arguments converted during string formatting
show(lambda: "%%" % 1)
# expect: TypeError: not all arguments converted during string formatting
show(lambda: "%*d" % ("a", 1))
# expect: TypeError: * wants int
show(lambda: "%.*f" % (1.5, 1.0))
# expect: TypeError: * wants int
show(lambda: "%.*f" % (2**40, 1.0))
# expect: OverflowError: Python int too large to convert to C int
show(lambda: "%(a)s" % 5)
# expect: TypeError: format requires a mapping
show(lambda: "%(a)s" % (1,))
# expect: TypeError: format requires a mapping
show(lambda: "%(a)s" % {})
# expect: KeyError: 'a'
show(lambda: "%(a)s" % [1])
# expect: TypeError: list indices must be integers or slices, not str
show(lambda: "%(a)s %s" % {"a": 1})
# expect: TypeError: not enough arguments for format string
show(lambda: "%(x)*d" % {"x": 4})
# expect: TypeError: not enough arguments for format string
show(lambda: "%(a" % {"a": 1})
# expect: ValueError: incomplete format key
show(lambda: "%(a)" % {"a": 1})
# expect: ValueError: incomplete format
show(lambda: "%" % ())
# expect: ValueError: incomplete format
show(lambda: "%-" % 1)
# expect: ValueError: incomplete format
show(lambda: "%z" % (1,))
# expect: ValueError: unsupported format character 'z' (0x7a) at index 1
show(lambda: "%z" % ())
# expect: TypeError: not enough arguments for format string
show(lambda: "abc %y" % 1)
# expect: ValueError: unsupported format character 'y' (0x79) at index 5
show(lambda: "é%y" % 1)
# expect: ValueError: unsupported format character 'y' (0x79) at index 2
show(lambda: "%\u00e9" % 1)
# expect: ValueError: unsupported format character '?' (0xe9) at index 1
show(lambda: "%5%" % ())
# expect: TypeError: not enough arguments for format string
show(lambda: "%5%" % (1,))
# expect: ValueError: unsupported format character '%' (0x25) at index 2
show(lambda: "%.99999999999f" % 1.0)
# expect: ValueError: precision too big
show(lambda: "%99999999999999999999d" % 1)
# expect: ValueError: width too big
print("%5.1f%%" % 99.5)
# expect:  99.5%
"%d items" % "three"
# expect-error: TypeError: %d format: a real number is required, not str
# expect-tb:   Cell line 134, column 12:
