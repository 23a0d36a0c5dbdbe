# exception groups are not in the language
try:
    pass
except* ValueError:
    pass
# expect-tb:   Cell line 4, column 7:
# expect-error: SyntaxError: `except*` (exception groups) is not supported in the MiniTorch language
