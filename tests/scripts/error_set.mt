# A set holds hashable values: a list among a display's items is CPython's TypeError, and the
# traceback points at that item; what ran before it did run.
seen = {1, 2}
print(seen)
# expect: {1, 2}
seen = {3, [4, 5]}
# expect-tb:   Cell line 6, column 12:
# expect-tb:     seen = {3, [4, 5]}
# expect-tb:                ^
# expect-error: TypeError: unhashable type: 'list'
