# only exceptions can be raised (Python's message)
raise "oops"
# expect-tb:   Cell line 2, column 1:
# expect-error: TypeError: exceptions must derive from BaseException
