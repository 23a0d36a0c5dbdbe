# raising a class raises an instance made without arguments: the last line is the name alone,
# as Python's; raising anything else is a TypeError
raise KeyboardInterrupt
# expect-tb:   Cell line 3, column 1:
# expect-error: KeyboardInterrupt
