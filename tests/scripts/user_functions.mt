# map, zip and reduce with user functions (MiniTorch's tensor_map/zip/reduce), compiled;
# expected values computed with numpy float32 scalars running the same Python functions
def shifted_relu(x):
    return max(x - 0.5, 0.0)
def blend(a, b):
    return 0.3 * a + 0.7 * b
def larger(a, b):
    return a if a > b else b
x = tensor([[0.25, 0.75, 1.5], [2.0, -1.0, 0.5]])
print(map(shifted_relu, x).tolist())
# expect: [[0.0, 0.25, 1.0], [1.5, 0.0, 0.0]]
print(zip(blend, x, tensor([1.0, 2.0, 4.0])).tolist())
# expect: [[0.775, 1.625, 3.25], [1.3, 1.0999999, 2.95]]
print(reduce(larger, x, 1, start=-1e9).tolist(), reduce(larger, x, 0, start=-1e9).tolist())
# expect: [[1.5], [2.0]] [[2.0, 0.75, 1.5]]
# statements: if/elif/else with early returns, a loop of known length, a call inlined
def steps(v):
    if v < 0:
        return 0
    elif v > 1:
        v = 1
    total = 0
    for i in range(4):
        total = total + shifted_relu(v + i)
    return total
print(map(steps, x).tolist())
# expect: [[5.25, 7.0, 8.0], [8.0, 0.0, 6.0]]
# the same numbers on simple, through a transposed view
print(map(steps, x.to("simple").permute(1, 0)).tolist())
# expect: [[5.25, 8.0], [7.0, 0.0], [8.0, 6.0]]
print(map(exp, tensor([0.0])).tolist(), relu(-3), sqrt(9))
# expect: [1.0] 0.0 3.0
def chatty(v):
    print(v)
    return v
map(chatty, x)
# expect-error: CompileError: map(chatty): print() is not a numeric operation; a compiled function may call abs, min, max, exp, log, sqrt, sigmoid, tanh, relu, float and user functions
# expect-tb:   In chatty(), line 34, column 5 of the cell defining it:
# expect-tb:         print(v)
