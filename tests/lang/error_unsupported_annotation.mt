# variable annotations are not in the language
count: int = 0
# expect-tb:   Cell line 2, column 6:
# expect-tb:     count: int = 0
# expect-tb:          ^
# expect-error: SyntaxError: variable annotations ('x: int = 0') are not supported in the MiniTorch language: leave the type out
