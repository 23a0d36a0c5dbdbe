# Python keywords outside the language are a SyntaxError that names them, before anything runs
print("never printed")
def numbers(n):
    for i in range(n):
        yield i
# expect-tb:   Cell line 5, column 9:
# expect-tb:             yield i
# expect-tb:             ^
# expect-error: SyntaxError: `yield` is not supported in the MiniTorch language (no generators: build a list and return it)
