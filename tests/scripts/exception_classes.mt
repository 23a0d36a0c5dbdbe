# Classes deriving from the built-in exceptions: raised as an instance or a class, caught by
# their own class, a base, or a tuple; args kept whatever __init__ does; str and repr as
# BaseException makes them unless the class defines its own; attributes of their own. Each
# expectation is what CPython prints.


class IndexingError(RuntimeError):
    "Exception raised for indexing errors."
    pass


class ShapeMismatch(ValueError):
    def __init__(self, msg, shape):
        super().__init__(msg)
        self.shape = shape


class Quiet(IndexingError):
    def __str__(self):
        return "quiet: " + str(self.args[0])


try:
    raise IndexingError("index (3, 1) out of range")
except RuntimeError as e:
    print(type(e).__name__, e, e.args, isinstance(e, IndexingError), isinstance(e, Exception))
# expect: IndexingError index (3, 1) out of range ('index (3, 1) out of range',) True True

try:
    raise ShapeMismatch("cannot broadcast", (2, 3))
except IndexingError:
    print("not this one")
except (KeyError, ShapeMismatch) as e:
    print(repr(e), str(e), e.shape, e.args)
# expect: ShapeMismatch('cannot broadcast') cannot broadcast (2, 3) ('cannot broadcast',)

try:
    raise IndexingError
except Exception as e:
    print(repr(e), "[" + str(e) + "]", e.args)
# expect: IndexingError() [] ()

try:
    raise Quiet("deep", 2)
except IndexingError as e:
    print(e, repr(e), e.args)
# expect: quiet: deep Quiet('deep', 2) ('deep', 2)


def check_index(i):
    if i >= 3:
        raise IndexingError("index " + str(i) + " >= 3")
    return i


results = []
for i in [1, 5, 2]:
    try:
        results.append(check_index(i))
    except IndexingError as e:
        results.append(str(e))
print(results)
# expect: [1, 'index 5 >= 3', 2]
print(issubclass(Quiet, RuntimeError), issubclass(ShapeMismatch, KeyError), issubclass(Quiet, Quiet))
# expect: True False True
print(isinstance(Quiet("x"), IndexingError), isinstance(IndexingError(), Quiet))
# expect: True False
print(IndexingError.__name__, type(ShapeMismatch("m", 1)).__name__)
# expect: IndexingError ShapeMismatch

try:
    try:
        raise ShapeMismatch("inner", 0)
    except ShapeMismatch as e:
        raise IndexingError("outer") from e
except IndexingError as e:
    print("caught", e)
# expect: caught outer

try:
    try:
        raise IndexingError("again")
    except IndexingError:
        raise
except RuntimeError as e:
    print("re-raised", e)
# expect: re-raised again


class NotAnError:
    pass


try:
    try:
        raise ValueError("v")
    except NotAnError:
        pass
except TypeError as e:
    print(e)
# expect: catching classes that do not inherit from BaseException is not allowed
try:
    raise NotAnError()
except TypeError as e:
    print(e)
# expect: exceptions must derive from BaseException
raise Quiet("uncaught")

# expect-error: Quiet: quiet: uncaught
