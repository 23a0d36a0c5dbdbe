%%time
# a cell magic other than %%minitorch_file (IPython's %%time here) is a UsageError that says
# which there is
x = 1
# expect-tb:   Cell line 1, column 1:
# expect-error: UsageError: unknown cell magic %%time; the cell magic is %%minitorch_file NAME.py (the cell is that file of the minitorch package); the line magics (%time, %timeit, ...) go on a line of their own
