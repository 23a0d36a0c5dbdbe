# minitorch.operators: MiniTorch's scalar operators and higher-order list functions (Task 0.1,
# 0.3), with MiniTorch's semantics: lt/eq give 1.0/0.0, log is ln(x + 1e-6); expected values
# from a python3 re-implementation of the course's operators.
from minitorch import operators
import minitorch
# expect: 12 3.0 3.5 -3.0 7
print(operators.mul(3, 4), operators.mul(1.5, 2), operators.add(1, 2.5), operators.neg(3), operators.id(7))
# expect: 1.0 0.0 1.0 0.0 0.0
print(operators.lt(1, 2), operators.lt(2, 1), operators.eq(2, 2), operators.eq(2, 3), operators.lt(1, 1))
# expect: 5 5.5 2
print(operators.max(3, 5), operators.max(5.5, 2), operators.max(2, 2))
# expect: True False
print(operators.is_close(1.0, 1.005), operators.is_close(1.0, 1.02))
# expect: 0.5 0.8807970779778823 0.11920292202211755 0.0 1.0
print(operators.sigmoid(0), operators.sigmoid(2.0), operators.sigmoid(-2.0), operators.sigmoid(-1000.0), operators.sigmoid(1000.0))
# expect: 0.0 2.5 0.0
print(operators.relu(-3.0), operators.relu(2.5), operators.relu(0))
# expect: 9.999994999180668e-07 -13.815510557964274 0.9162911318740751
print(operators.log(1.0), operators.log(0.0), operators.log(2.5))
# expect: 1.0 4.4816890703380645
print(operators.exp(0.0), operators.exp(1.5))
# expect: 0.25 -2.0
print(operators.inv(4), operators.inv(-0.5))
# expect: 1.499999250000375 -0.75 3.0 0.0
print(operators.log_back(2.0, 3.0), operators.inv_back(2.0, 3.0), operators.relu_back(2.0, 3.0), operators.relu_back(-2.0, 3.0))
# expect: [-1.0, -2.5, 3.0]
print(operators.map(operators.neg)([1, 2.5, -3]))
# expect: [11, 22, 33]
print(operators.zipWith(operators.add)([1, 2, 3], [10, 20, 30]))
# expect: [4, 10]
print(operators.zipWith(operators.mul)([1, 2, 3], [4, 5]))
# expect: 6.0 1.0
print(operators.reduce(operators.add, 0.0)([1, 2, 3]), operators.reduce(operators.mul, 1.0)([]))
# expect: [-1.0, 2.0] [4.0, 6.0]
print(operators.negList([1.0, -2.0]), operators.addLists([1.0, 2.0], [3.0, 4.0]))
# expect: 6.5 0.0 24.0 1.0
print(operators.sum([1.0, 2.0, 3.5]), operators.sum([]), operators.prod([2.0, 3.0, 4.0]), operators.prod([]))
def square(x):
    return x * x
def sub(x, acc):
    return x - acc
# expect: [1, 4, 9] 2
print(operators.map(square)([1, 2, 3]), operators.reduce(sub, 0)([1, 2, 3]))
# expect: 42
print(minitorch.operators.mul(2, 21))
neg = operators.map(operators.neg)
# expect: [-1.0, -2.0] [-0.0, -1.0, -2.0]
print(neg((1, 2)), neg(range(3)))
# expect: 2.0
print(operators.sum(operators.addLists([1.0, 2.0], operators.negList([0.5, 0.5]))))

