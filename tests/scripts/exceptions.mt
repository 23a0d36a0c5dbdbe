# try/except/else/finally, raise, and the built-in exception classes, as in CPython 3.
# Every expected line was worked out by running this script with python3.

# catching an error the interpreter raises, in a function
def safe_div(a, b):
    try:
        return a / b
    except ZeroDivisionError as e:
        print("caught:", e)
        return None
    finally:
        print("finally", a, b)

print(safe_div(6, 3))
# expect: finally 6 3
# expect: 2.0
print(safe_div(1, 0))
# expect: caught: division by zero
# expect: finally 1 0
# expect: None

# else runs when the body raised nothing; finally always
def classify(xs, i):
    try:
        v = xs[i]
    except IndexError:
        print("no item", i)
    else:
        print("item", v)
    finally:
        print("done", i)

classify([10, 20], 1)
# expect: item 20
# expect: done 1
classify([10, 20], 5)
# expect: no item 5
# expect: done 5

# the hierarchy: ZeroDivisionError < ArithmeticError < Exception < BaseException
try:
    1 // 0
except ArithmeticError as e:
    print("ArithmeticError caught", repr(e))
# expect: ArithmeticError caught ZeroDivisionError('integer division or modulo by zero')
try:
    [][0]
except LookupError as e:
    print("LookupError caught", e)
# expect: LookupError caught list index out of range
try:
    undefined_name
except Exception as e:
    print("Exception caught", e)
# expect: Exception caught name 'undefined_name' is not defined

# a tuple of classes; the first matching clause runs
try:
    [1, 2].index(5)
except (TypeError, ValueError) as e:
    print("tuple caught", e)
except Exception:
    print("not reached")
# expect: tuple caught 5 is not in list

# a clause that does not match lets the error through to an outer one
try:
    try:
        len(5)
    except ValueError:
        print("not reached")
except TypeError as e:
    print("outer", e)
# expect: outer object of type 'int' has no len()

# exception values: str, repr and args
e = ValueError("bad value", 3)
print(e)
# expect: ('bad value', 3)
print(repr(e))
# expect: ValueError('bad value', 3)
print(e.args)
# expect: ('bad value', 3)
print(repr(ValueError()), str(ValueError()) == "", ValueError("one").args)
# expect: ValueError() True ('one',)
print(KeyError("k"), repr(KeyError("k")))
# expect: 'k' KeyError('k')
print(ZeroDivisionError.__name__)
# expect: ZeroDivisionError

# raise a class, an instance, and re-raise with a bare raise
def positive(x):
    if x < 0:
        raise ValueError("negative: " + str(x))
    return x

try:
    positive(-2)
except ValueError as err:
    print("positive:", err)
# expect: positive: negative: -2

try:
    raise RuntimeError
except RuntimeError as err:
    print("class raised:", repr(err))
# expect: class raised: RuntimeError()

try:
    try:
        positive(-1)
    except ValueError:
        print("handling, then re-raising")
        raise
except ValueError as err:
    print("re-raised:", err)
# expect: handling, then re-raising
# expect: re-raised: negative: -1

# the same object comes back from raise e
first = TypeError("first")
try:
    raise first
except TypeError as again:
    print(again == first, again.args)
# expect: True ('first',)

# raise ... from ... is accepted (the cause is not shown)
try:
    try:
        1 / 0
    except ZeroDivisionError as cause:
        raise ValueError("wrapped") from cause
except ValueError as err:
    print("from:", err)
# expect: from: wrapped

# MiniTorch's templates
def todo():
    raise NotImplementedError("Need to implement for Task 3.5")

try:
    todo()
except NotImplementedError as err:
    print("NotImplementedError:", err)
# expect: NotImplementedError: Need to implement for Task 3.5
try:
    todo()
except RuntimeError:
    print("NotImplementedError is a RuntimeError")
# expect: NotImplementedError is a RuntimeError

# finally on return, break and continue
def ret():
    try:
        return "body"
    finally:
        print("finally before return")

print(ret())
# expect: finally before return
# expect: body

def override():
    try:
        return 1
    finally:
        return 2

print(override())
# expect: 2

for i in range(5):
    try:
        if i == 1:
            continue
        if i == 3:
            break
        print("loop body", i)
    finally:
        print("loop finally", i)
# expect: loop body 0
# expect: loop finally 0
# expect: loop finally 1
# expect: loop body 2
# expect: loop finally 2
# expect: loop finally 3

# a return in finally discards the error
def swallow():
    try:
        raise ValueError("lost")
    finally:
        return "swallowed"

print(swallow())
# expect: swallowed

# an error inside a clause replaces the one caught
try:
    try:
        1 / 0
    except ZeroDivisionError:
        [][1]
except IndexError as err:
    print("replaced by:", err)
# expect: replaced by: list index out of range

# `as e` is unbound after its clause, even when the name was bound before
caught_error = "before"
try:
    raise KeyError("gone")
except KeyError as caught_error:
    pass
try:
    print(caught_error)
except NameError as err:
    print(err)
# expect: name 'caught_error' is not defined

# a loop that keeps going past errors
total = 0
for x in [1, 0, 2, 0, 4]:
    try:
        total = total + 8 // x
    except ZeroDivisionError:
        total = total + 100
print(total)
# expect: 214

# recursion past the limit is a RecursionError, and the interpreter works after it
def deep(n):
    return deep(n + 1)

try:
    deep(0)
except RecursionError:
    print("RecursionError caught")
# expect: RecursionError caught
# expect: 50
# expect: MemoryError caught
# expect: BaseException caught KeyboardInterrupt()
# expect: bare except
# expect: fallback
# expect: cleaning up
# expect: still: list index out of range

def count(n):
    if n == 0:
        return 0
    return 1 + count(n - 1)

print(count(50))

# a string over the size limit is a MemoryError, caught like any other
try:
    s = "x" * (2 ** 40)
except MemoryError:
    print("MemoryError caught")

# KeyboardInterrupt is no Exception: except Exception lets it through
try:
    try:
        raise KeyboardInterrupt
    except Exception:
        print("not reached")
except BaseException as err:
    print("BaseException caught", repr(err))

# bare except catches everything
try:
    raise StopIteration
except:
    print("bare except")

# an error in a function body called from try: caught in the caller
def inner():
    return [1, 2][7]

def outer():
    try:
        return inner()
    except IndexError:
        return "fallback"

print(outer())

# a bare raise in finally raises the error going through it
try:
    try:
        [1][3]
    finally:
        print("cleaning up")
        raise
except IndexError as err:
    print("still:", err)
