# The methods of str against CPython 3.11: every expectation below is what python3 printed for
# the same lines (the NotImplementedError section at the end is the kernel's own). `show` prints
# a call's result, or the error it raised as CPython words it.
def show(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__ + ":", e)

# split: whitespace runs without sep (Unicode spaces too), none empty; sep and maxsplit
print("  a b\t\nc  ".split(), "".split(), "   ".split(), "a\u00a0b\u2003c".split())
# expect: ['a', 'b', 'c'] [] [] ['a', 'b', 'c']
print("a,b,,c,".split(","), "".split(","), "a--b--c".split("--"), "abc".split("abc"))
# expect: ['a', 'b', '', 'c', ''] [''] ['a', 'b', 'c'] ['', '']
print("a b c d".split(None, 2), "a b c d".split(maxsplit=1), "a,b,c".split(",", 0), "  a b ".split(None, 1))
# expect: ['a', 'b', 'c d'] ['a', 'b c d'] ['a,b,c'] ['a', 'b ']
print("a,b,c".split(sep=",", maxsplit=1), "a b c".split(None, -1), "a b".split(None, True))
# expect: ['a', 'b,c'] ['a', 'b', 'c'] ['a', 'b']
print("  a b c  ".rsplit(None, 1), "a,b,c".rsplit(",", 1), "a,b,c".rsplit(","), "  a b  ".rsplit(None, 0))
# expect: ['  a b', 'c'] ['a,b', 'c'] ['a', 'b', 'c'] ['  a b']
print("aaa".split("aa"), "aaa".rsplit("aa"), "x".rsplit(None), "héllo wörld".split("ö"))
# expect: ['', 'a'] ['a', ''] ['x'] ['héllo w', 'rld']
show(lambda: "a".split(1))
# expect: TypeError: must be str or None, not int
show(lambda: "a".split(""))
# expect: ValueError: empty separator
show(lambda: "a".rsplit(""))
# expect: ValueError: empty separator
show(lambda: "a".split(None, "x"))
# expect: TypeError: 'str' object cannot be interpreted as an integer
show(lambda: "a".split(None, 1.5))
# expect: TypeError: 'float' object cannot be interpreted as an integer
show(lambda: "a".split(",", 1, 2))
# expect: TypeError: split() takes at most 2 arguments (3 given)
show(lambda: "a".split(foo=1))
# expect: TypeError: 'foo' is an invalid keyword argument for split()
show(lambda: "a".split(",", sep=","))
# expect: TypeError: argument for split() given by name ('sep') and position (1)

# join
print(", ".join(["a", "b", "c"]), "".join(("x", "y")), "-".join("abc"), "+".join([]), "/".join({"k": 1, "j": 2}))
# expect: a, b, c xy a-b-c  k/j
print("-".join(str(i) for i in range(4)), "é".join(["a", "b"]))
# expect: 0-1-2-3 aéb
show(lambda: "-".join([1, 2]))
# expect: TypeError: sequence item 0: expected str instance, int found
show(lambda: "-".join(["a", 2]))
# expect: TypeError: sequence item 1: expected str instance, int found
show(lambda: "-".join(5))
# expect: TypeError: can only join an iterable
show(lambda: "-".join(None))
# expect: TypeError: can only join an iterable
show(lambda: "-".join())
# expect: TypeError: str.join() takes exactly one argument (0 given)
show(lambda: "-".join(["a"], ["b"]))
# expect: TypeError: str.join() takes exactly one argument (2 given)

# strip, lstrip, rstrip
print(repr("  \t hi \n ".strip()), repr("xxhixx".strip("x")), repr("abchicba".strip("abc")), repr("  hi  ".lstrip()), repr("  hi  ".rstrip()))
# expect: 'hi' 'hi' 'hi' 'hi  ' '  hi'
print(repr("www.example.com".lstrip("cmowz.")), repr("mississippi".rstrip("ipz")), repr("\u3000hi\u2029".strip()), repr("ééaéé".strip("é")))
# expect: 'example.com' 'mississ' 'hi' 'a'
print(repr("  hi ".strip(None)), repr("".strip()), repr("xyz".strip("")))
# expect: 'hi' '' 'xyz'
show(lambda: "a".strip(1))
# expect: TypeError: strip arg must be None or str
show(lambda: "a".lstrip(1))
# expect: TypeError: lstrip arg must be None or str
show(lambda: "a".rstrip("a", "b"))
# expect: TypeError: rstrip expected at most 1 argument, got 2
show(lambda: "a".strip(chars="a"))
# expect: TypeError: str.strip() takes no keyword arguments

# startswith, endswith
print("abc".startswith("ab"), "abc".startswith(("x", "a")), "abc".startswith(()), "abc".endswith("bc"), "abc".endswith(("c", "x")))
# expect: True True False True True
print("abcdef".startswith("cd", 2), "abcdef".startswith("cd", 2, 3), "abcdef".endswith("cd", 0, 4), "abcdef".endswith("ab", -10, -4))
# expect: True False True True
print("abc".startswith("", 3), "abc".startswith("", 4), "".startswith(""), "abc".endswith("", 5), "abc".startswith("a", None, None))
# expect: True False True False True
print("héllo".startswith("é", 1), "héllo".endswith("ll", 0, 4), "a".startswith(("a", 1)))
# expect: True True True
show(lambda: "a".startswith(1))
# expect: TypeError: startswith first arg must be str or a tuple of str, not int
show(lambda: "a".startswith(("b", 1)))
# expect: TypeError: tuple for startswith must only contain str, not int
show(lambda: "a".endswith((2,)))
# expect: TypeError: tuple for endswith must only contain str, not int
show(lambda: "a".startswith("a", "x"))
# expect: TypeError: slice indices must be integers or None or have an __index__ method
show(lambda: "a".startswith("a", 1.5))
# expect: TypeError: slice indices must be integers or None or have an __index__ method
show(lambda: "a".startswith())
# expect: TypeError: startswith() takes at least 1 argument (0 given)
show(lambda: "a".endswith("a", 0, 1, 2))
# expect: TypeError: endswith() takes at most 3 arguments (4 given)
show(lambda: "a".startswith(prefix="a"))
# expect: TypeError: str.startswith() takes no keyword arguments

# find, rfind, index, rindex, count
print("hello".find("l"), "hello".rfind("l"), "hello".find("z"), "hello".find("l", 3), "hello".find("l", -2), "hello".find("h", 1, 3))
# expect: 2 3 -1 3 3 -1
print("abc".find(""), "abc".find("", 3), "abc".find("", 5), "abc".rfind(""), "abc".rfind("", 0, 2), "abc".find("c", -100, 100))
# expect: 0 3 -1 3 2 2
print("héllo wörld".find("ö"), "héllo wörld".rfind("l"), "héllo".index("l", 3), "héllo".rindex("é"), "ééé".find("é", 1))
# expect: 7 9 3 1 1
print("abcabc".count("b"), "aaaa".count("aa"), "abc".count(""), "abc".count("", 2), "abc".count("", 5), "héllo".count("l", 3), "abc".count("x"))
# expect: 2 2 4 2 0 1 0
show(lambda: "hello".index("z"))
# expect: ValueError: substring not found
show(lambda: "hello".rindex("z"))
# expect: ValueError: substring not found
show(lambda: "hello".index("h", 1))
# expect: ValueError: substring not found
show(lambda: "a".find(None))
# expect: TypeError: must be str, not NoneType
show(lambda: "a".count(1))
# expect: TypeError: must be str, not int
show(lambda: "a".find("a", "x"))
# expect: TypeError: slice indices must be integers or None or have an __index__ method
show(lambda: "a".find())
# expect: TypeError: find() takes at least 1 argument (0 given)
show(lambda: "a".rfind("a", 0, 1, 2))
# expect: TypeError: rfind() takes at most 3 arguments (4 given)
show(lambda: "a".index(sub="a"))
# expect: TypeError: str.index() takes no keyword arguments

# replace
print("aaa".replace("a", "b"), "aaa".replace("a", "b", 2), "aaa".replace("a", "b", 0), "aaa".replace("a", "b", -1), "abc".replace("x", "y"))
# expect: bbb bba aaa bbb abc
print("abc".replace("", "-"), "abc".replace("", "-", 2), "".replace("", "x"), "héllo".replace("", "|"), "héllo".replace("é", "e"))
# expect: -a-b-c- -a-bc x |h|é|l|l|o| hello
print("banana".replace("ana", "_"), "a.b.c".replace(".", ""), "ab".replace("ab", "abab", 5))
# expect: b_na abc abab
show(lambda: "a".replace(1, "b"))
# expect: TypeError: replace() argument 1 must be str, not int
show(lambda: "a".replace("a", None))
# expect: TypeError: replace() argument 2 must be str, not None
show(lambda: "a".replace("a", "b", "x"))
# expect: TypeError: 'str' object cannot be interpreted as an integer
show(lambda: "a".replace("a"))
# expect: TypeError: replace expected at least 2 arguments, got 1
show(lambda: "a".replace("a", "b", 1, 2))
# expect: TypeError: replace expected at most 3 arguments, got 4
show(lambda: "a".replace("a", "b", count=1))
# expect: TypeError: str.replace() takes no keyword arguments

# case
print("Hello World".upper(), "Hello World".lower(), "hello world".title(), "hELLO wORLD".swapcase(), "hELLO wORLD".capitalize())
# expect: HELLO WORLD hello world Hello World Hello World Hello world
print("they're bill's friends".title(), "3rd place x1y".title(), "ÉCOLE".lower(), "straße".upper(), "Straße".casefold(), "ǆemal".capitalize())
# expect: They'Re Bill'S Friends 3Rd Place X1Y école STRASSE strasse ǅemal
print("ΟΔΟΣ ΣΑΣ".lower(), "Σ".lower(), "ΑΣ'Α".lower(), "İ".lower(), "ﬁne".upper(), "ﬁne".title(), "ǉ".title(), "ΑΣ Σ".swapcase())
# expect: οδος σας σ ασ'α i̇ FINE Fine ǈ ας σ
print("".upper(), "123".lower(), "x".capitalize(), "ß".capitalize(), "aBc".casefold())
# expect:  123 X Ss abc
show(lambda: "a".upper(1))
# expect: TypeError: str.upper() takes no arguments (1 given)
show(lambda: "a".lower(x=1))
# expect: TypeError: str.lower() takes no keyword arguments
show(lambda: "a".title(None))
# expect: TypeError: str.title() takes no arguments (1 given)

# tests of characters
print("abc".isalpha(), "ab1".isalpha(), "".isalpha(), "héllo".isalpha(), "abc1".isalnum(), "a b".isalnum(), "½".isalnum())
# expect: True False False True True False True
print("123".isdigit(), "²".isdigit(), "²".isdecimal(), "½".isnumeric(), "½".isdigit(), "١٢".isdecimal(), "".isdigit(), "1.5".isdecimal())
# expect: True True False True False True False False
print(" \t\n".isspace(), "".isspace(), "\u00a0\u2028".isspace(), "a ".isspace(), "abc".isascii(), "é".isascii(), "".isascii())
# expect: True False True False True False True
print("abc".islower(), "abc1".islower(), "Abc".islower(), "123".islower(), "ABC".isupper(), "AB1".isupper(), "".isupper(), "ǅ".isupper())
# expect: True True False False True True False False
print("Hello World".istitle(), "Hello world".istitle(), "HELLO".istitle(), "".istitle(), "Hi 123 There".istitle(), "ǅem".istitle())
# expect: True False False False True True
print("x_1".isidentifier(), "1x".isidentifier(), "_".isidentifier(), "".isidentifier(), "été".isidentifier(), "a-b".isidentifier(), "class".isidentifier())
# expect: True False True False True False True
print("abc".isprintable(), "a\nb".isprintable(), "".isprintable(), "\u00a0".isprintable(), "é".isprintable())
# expect: True False True False True
show(lambda: "a".isdigit(1))
# expect: TypeError: str.isdigit() takes no arguments (1 given)

# zfill, center, ljust, rjust, expandtabs
print("42".zfill(5), "-42".zfill(5), "+42".zfill(5), "abc".zfill(2), "".zfill(3), "-".zfill(3), "é".zfill(3))
# expect: 00042 -0042 +0042 abc 000 -00 00é
print(repr("ab".center(7)), repr("ab".center(7, "*")), repr("abc".center(6, "*")), repr("ab".center(6, "é")), repr("abc".center(2)), repr("a".center(4)))
# expect: '   ab  ' '***ab**' '*abc**' 'ééabéé' 'abc' ' a  '
print(repr("ab".ljust(5)), repr("ab".ljust(5, ".")), repr("ab".rjust(5)), repr("ab".rjust(5, "0")), repr("ab".rjust(-1)), repr("héllo".ljust(7, "_")))
# expect: 'ab   ' 'ab...' '   ab' '000ab' 'ab' 'héllo__'
print(repr("a\tbc\td".expandtabs()), repr("a\tb".expandtabs(4)), repr("a\tb".expandtabs(0)), repr("ab\ncd\te".expandtabs(4)), repr("é\tx".expandtabs(3)))
# expect: 'a       bc      d' 'a   b' 'ab' 'ab\ncd  e' 'é  x'
print(repr("a\tb".expandtabs(tabsize=2)), repr("\t".expandtabs(-3)))
# expect: 'a b' ''
show(lambda: "a".zfill("x"))
# expect: TypeError: 'str' object cannot be interpreted as an integer
show(lambda: "a".zfill())
# expect: TypeError: str.zfill() takes exactly one argument (0 given)
show(lambda: "a".center(5, "ab"))
# expect: TypeError: The fill character must be exactly one character long
show(lambda: "a".center(5, ""))
# expect: TypeError: The fill character must be exactly one character long
show(lambda: "a".center(5, 1))
# expect: TypeError: The fill character must be a unicode character, not int
show(lambda: "a".ljust(None))
# expect: TypeError: 'NoneType' object cannot be interpreted as an integer
show(lambda: "a".rjust())
# expect: TypeError: rjust expected at least 1 argument, got 0
show(lambda: "a".center(5, " ", 1))
# expect: TypeError: center expected at most 2 arguments, got 3
show(lambda: "a".expandtabs("x"))
# expect: TypeError: 'str' object cannot be interpreted as an integer
show(lambda: "a".expandtabs(2**40))
# expect: OverflowError: Python int too large to convert to C int
show(lambda: "a".expandtabs(size=1))
# expect: TypeError: 'size' is an invalid keyword argument for expandtabs()

# partition, rpartition, splitlines
print("a=b=c".partition("="), "a=b=c".rpartition("="), "abc".partition("x"), "abc".rpartition("x"), "héllo".partition("l"))
# expect: ('a', '=', 'b=c') ('a=b', '=', 'c') ('abc', '', '') ('', '', 'abc') ('hé', 'l', 'lo')
print("x\ny\r\nz\rw".splitlines(), "x\ny\r\n".splitlines(True), "".splitlines(), "\n".splitlines(), "a\x0bb\x0cc\x1cd\u2028e\x85f".splitlines())
# expect: ['x', 'y', 'z', 'w'] ['x\n', 'y\r\n'] [] [''] ['a', 'b', 'c', 'd', 'e', 'f']
print("a\nb".splitlines(keepends=True), "a\n\nb".splitlines(), "ab".splitlines(1))
# expect: ['a\n', 'b'] ['a', '', 'b'] ['ab']
show(lambda: "a".partition(""))
# expect: ValueError: empty separator
show(lambda: "a".rpartition(None))
# expect: TypeError: must be str, not NoneType
show(lambda: "a".partition())
# expect: TypeError: str.partition() takes exactly one argument (0 given)
show(lambda: "a".splitlines("x"))
# expect: TypeError: 'str' object cannot be interpreted as an integer
show(lambda: "a".splitlines(keep=True))
# expect: TypeError: 'keep' is an invalid keyword argument for splitlines()

# removeprefix, removesuffix
print("TestCase".removeprefix("Test"), "TestCase".removeprefix("Case"), "x.py".removesuffix(".py"), "x.py".removesuffix(""), "ab".removeprefix("ab"))
# expect: Case TestCase x x.py 
show(lambda: "a".removeprefix(None))
# expect: TypeError: removeprefix() argument must be str, not None
show(lambda: "a".removesuffix(1))
# expect: TypeError: removesuffix() argument must be str, not int
show(lambda: "a".removeprefix())
# expect: TypeError: str.removeprefix() takes exactly one argument (0 given)

# methods as values, and a missing name: CPython's AttributeError
up = "abc".upper
print(up(), up.__name__ if False else "ok")
# expect: ABC ok
show(lambda: "a".foo)
# expect: AttributeError: 'str' object has no attribute 'foo'
print("a".__class__, type("a".split()))
# expect: <class 'str'> <class 'list'>

# kernel-only
# What CPython's str has and the language does not: a NotImplementedError naming it.
show(lambda: "a".translate({}))
# expect: NotImplementedError: str.translate() is not supported in the MiniTorch language: use replace()
# A name close to a method's is suggested, as CPython's traceback does after its message.
show(lambda: "a".uper())
# expect: AttributeError: 'str' object has no attribute 'uper'. Did you mean: 'upper'?
show(lambda: "a".encode())
# expect: NotImplementedError: str.encode() is not supported in the MiniTorch language (there are no bytes)
show(lambda: "a".format_map({}))
# expect: NotImplementedError: str.format_map() is not supported in the MiniTorch language: use s.format(**mapping)
show(lambda: "a".__len__())
# expect: NotImplementedError: str.__len__ is not supported in the MiniTorch language
"hello".translate({104: "j"})
# expect-error: NotImplementedError: str.translate() is not supported in the MiniTorch language: use replace()
# expect-tb:   Cell line 266, column 9:
