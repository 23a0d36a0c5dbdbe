# An f-string whose field is not closed is a SyntaxError before anything runs, with a caret at
# the field.
print("never printed")
print(f"total: {1 + 2")
# expect-error: SyntaxError: f-string: expecting '}'
# expect-tb:     print(f"total: {1 + 2")
# expect-tb:                    ^
