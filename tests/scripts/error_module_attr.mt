# a module's members are attributes: a misspelt one gets a suggestion
import minitorch
x = minitorch.operators.sigmoid(0.0)
minitorch.operators.relu_bak(1.0, 2.0)
# expect-tb:   Cell line 4, column 21:
# expect-error: AttributeError: module 'minitorch.operators' has no attribute 'relu_bak', did you mean 'relu_back'?
