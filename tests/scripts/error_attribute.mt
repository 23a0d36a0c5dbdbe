# a misspelt method gets a suggestion
x = ones(2)
x.sume()
# expect-tb:   Cell line 3, column 3:
# expect-error: AttributeError: 'tensor' object has no attribute 'sume', did you mean 'sum'?
