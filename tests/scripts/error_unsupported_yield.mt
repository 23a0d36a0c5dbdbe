# `yield` as a value (what send() would give) is not in the language: a SyntaxError that says so,
# before anything runs; `yield v` as a statement makes a generator (generators.mt)
print("never printed")
def numbers(n):
    for i in range(n):
        got = yield i
# expect-tb:   Cell line 6, column 15:
# expect-tb:             got = yield i
# expect-tb:                   ^
# expect-error: SyntaxError: `yield` as a value (x = yield v, send()) is not supported in the MiniTorch language: write `yield v` as a statement of its own
