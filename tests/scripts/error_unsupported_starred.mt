# a starred assignment target is not in the language
xs = [1, 2, 3]
first, *rest = xs
# expect-tb:   Cell line 3, column 8:
# expect-tb:     first, *rest = xs
# expect-tb:            ^
# expect-error: SyntaxError: starred expressions ('*' before a value) are not supported here in the MiniTorch language
