# Sets are not part of the language: a set display is a SyntaxError that names it, before
# anything runs.
print("never printed")
seen = {1, 2, 3}
# expect-error: SyntaxError: sets are not supported in the MiniTorch language ({a, b} is a set in Python): use a list, or a dict
# expect-tb:     seen = {1, 2, 3}
# expect-tb:            ^
