# A generator that never ends: the kernel runs a generator's body to its end when the generator
# is called (docs/LANGUAGE.md), so where CPython gives 0 here the body's values outgrow a list.
# The error names the generator and says why, located at its yield (a kernel's message: CPython
# has no such error).
def count():
    i = 0
    while True:
        yield i
        i += 1

print("before")
# expect: before
print(next(count()))
# expect-error: MemoryError: generator count() yielded more than 4194304 values: here a generator's body runs to its end when the generator is called, not one value per next(), so a generator that never ends is not supported
# expect-tb:   In count(), line 8, column 9 of the cell defining it:
# expect-tb:             yield i
