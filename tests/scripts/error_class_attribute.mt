# reading an attribute an instance does not have: Python's message, with a suggestion
class Linear:
    def __init__(self, n):
        self.weights = [0.0] * n


layer = Linear(2)
print(len(layer.weights))
# expect: 2
print(layer.weight)
# expect-tb:   Cell line 10, column 13:
# expect-tb:     print(layer.weight)
# expect-error: AttributeError: 'Linear' object has no attribute 'weight'. Did you mean: 'weights'?
