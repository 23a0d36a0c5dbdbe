# Python 2's `print >>f, x` is, as in CPython 3.11, a `>>` of the builtin print and f when it
# runs: a TypeError whose message says how Python 3 writes it.
log = []
print >>log, "x"
# expect-tb:   Cell line 4, column 7:
# expect-tb:     print >>log, "x"
# expect-tb:           ^
# expect-error: TypeError: unsupported operand type(s) for >>: 'builtin_function_or_method' and 'list'. Did you mean "print(<message>, file=<output_stream>)"?
