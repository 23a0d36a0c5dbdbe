# the with statement is not in the language: its SyntaxError names it
with open("data.txt") as f:
    print(f)
# expect-tb:   Cell line 2, column 1:
# expect-error: SyntaxError: the `with` statement is not supported in the MiniTorch language: call what it would enter and leave yourself, inside try/finally
