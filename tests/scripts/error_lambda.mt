# an error inside a lambda: the traceback names it <lambda>, as Python's does
scale = lambda x: x * factor
scale(2)
# expect-tb:   Cell line 3, column 1:
# expect-tb:   In <lambda>(), line 2, column 23 of the cell defining it:
# expect-tb:     scale = lambda x: x * factor
# expect-error: NameError: name 'factor' is not defined
