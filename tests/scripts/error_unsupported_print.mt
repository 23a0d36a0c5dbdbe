# Python 2's print statement: Python 3's own message
print "hello"
# expect-tb:   Cell line 2, column 1:
# expect-error: SyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?
