# assignment expressions are not in the language
xs = [1, 2, 3]
if (n := len(xs)) > 2:
    print(n)
# expect-tb:   Cell line 3, column 7:
# expect-error: SyntaxError: assignment expressions (':=') are not supported in the MiniTorch language
