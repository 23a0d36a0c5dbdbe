# a block header without an indented block
if true:
print(1)
# expect-tb:   Cell line 3, column 1:
# expect-error: IndentationError: expected an indented block after 'if' statement on line 2
