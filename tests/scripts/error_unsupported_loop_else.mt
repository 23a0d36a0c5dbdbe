# else after a loop is not in the language
for i in range(3):
    if i == 5:
        break
else:
    print("no break")
# expect-tb:   Cell line 5, column 1:
# expect-error: SyntaxError: `else` after a `for` loop is not supported in the MiniTorch language: set a flag before `break` and test it after the loop
