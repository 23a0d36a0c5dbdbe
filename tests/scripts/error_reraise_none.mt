# a bare raise outside any except clause has nothing to raise again (Python's message)
x = 1
raise
# expect-tb:   Cell line 3, column 1:
# expect-error: RuntimeError: No active exception to reraise
