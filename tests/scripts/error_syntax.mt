# a syntax error stops the script before anything runs, with the line and a caret
print("not printed")
x = (1 +
y = 2
# expect-tb:   Cell line 3, column 5:
# expect-tb:     x = (1 +
# expect-tb:         ^
# expect-error: SyntaxError: '(' was never closed
