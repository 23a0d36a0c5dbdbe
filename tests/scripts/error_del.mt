# del of a name that is not bound is a NameError, located at the name
total = 3
del total
del total
# expect-tb:   Cell line 4, column 5:
# expect-tb:     del total
# expect-tb:         ^
# expect-error: NameError: name 'total' is not defined
