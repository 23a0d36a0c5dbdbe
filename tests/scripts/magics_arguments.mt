# %who keeps its name column to 40 characters (a 1 MB name padded every row to 1 MB): a longer
# name is cut to 37 and marked with ...
abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz = 1
b = 2
%who
# expect: Variable                                  Type       Data/Info
# expect: abcdefghijklmnopqrstuvwxyzabcdefghijk...  int        1
# expect: b                                         int        2
# %timeit -n without its number is a usage error, as IPython's (it was run as the statement -n)
%timeit -n
# expect-error: UsageError: %timeit -n needs a whole number from 1 to 1000000000
