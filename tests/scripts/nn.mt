# MiniTorch's nn.py (Module 4) as the kernel's own file gives it: tile, avgpool2d, maxpool2d,
# max, argmax, softmax, logsoftmax, dropout, on the simple and fast backends; what MiniTorch's
# tests/test_nn.py checks (a pooled cell is the mean or the max of its block, softmax sums to
# 1 along its dim, dropout at rates 0 and 1, grad_check of each) with the expected numbers
# worked by hand from a 4x4 image of 1..16.
import minitorch
from minitorch.nn import argmax, avgpool2d, dropout, logsoftmax, max, maxpool2d, softmax, tile

rows = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
for backend in (minitorch.SimpleBackend, minitorch.FastTensorBackend):
    t = minitorch.tensor([[rows]], backend=backend)
    print(avgpool2d(t, (2, 2)).tolist(), maxpool2d(t, (2, 2)).tolist())
    print(avgpool2d(t, (2, 1)).tolist()[0][0][0], maxpool2d(t, (1, 2)).tolist()[0][0][3])
    blocks, h, w = tile(t, (2, 2))
    print(blocks.shape, h, w, blocks.tolist()[0][0][1][0])
    m = minitorch.tensor([[1, 5, 3], [7, 2, 7]], backend=backend)
    print(max(m, 1).tolist(), argmax(m, 1).tolist(), max(m, 0).tolist())
    # max's gradient goes to the cells that hold the max: both 7s
    g = minitorch.tensor([[1, 5, 3], [7, 2, 7]], backend=backend)
    g.requires_grad_(True)
    max(g, 1).sum().backward()
    print(g.grad.tolist())
    x = minitorch.rand((2, 3, 4), backend=backend)
    s = softmax(x, 2).sum(2)
    print(s.shape, all(abs(s[i, j, 0] - 1.0) < 1e-5 for i in range(2) for j in range(3)))
    e = logsoftmax(x, 1).exp().sum(1)
    print(e.shape, all(abs(e[i, 0, j] - 1.0) < 1e-5 for i in range(2) for j in range(4)))
    # softmax of large numbers: taken from x - max, no overflow
    big = minitorch.tensor([[1000.0, 1000.0], [0.0, 1000.0]], backend=backend)
    print(softmax(big, 1).tolist(), logsoftmax(big, 1).tolist())
    print(dropout(x, 0.0).tolist() == x.tolist(), dropout(x, 1.0).sum().item(),
          dropout(x, 1.0, ignore=True) is x)
    minitorch.grad_check(lambda a: avgpool2d(a, (2, 2)), minitorch.rand((1, 1, 4, 4), backend=backend))
    minitorch.grad_check(lambda a: maxpool2d(a, (2, 2)), minitorch.rand((1, 1, 4, 4), backend=backend))
    minitorch.grad_check(lambda a: softmax(a, 1), minitorch.rand((2, 3, 4), backend=backend))
    minitorch.grad_check(lambda a: logsoftmax(a, 2), minitorch.rand((2, 3, 4), backend=backend))
    minitorch.grad_check(lambda a: max(a, 2), minitorch.rand((2, 3, 4), backend=backend))
# expect: [[[[3.5, 5.5], [11.5, 13.5]]]] [[[[6.0, 8.0], [14.0, 16.0]]]]
# expect: [3.0, 4.0, 5.0, 6.0] [14.0, 16.0]
# expect: (1, 1, 2, 2, 4) 2 2 [9.0, 10.0, 13.0, 14.0]
# expect: [[5.0], [7.0]] [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]] [[7.0, 5.0, 7.0]]
# expect: [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]
# expect: (2, 3, 1) True
# expect: (2, 1, 4) True
# expect: [[0.5, 0.5], [0.0, 1.0]] [[-0.6931472, -0.6931472], [-1000.0, 0.0]]
# expect: True 0.0 True
# expect: [[[[3.5, 5.5], [11.5, 13.5]]]] [[[[6.0, 8.0], [14.0, 16.0]]]]
# expect: [3.0, 4.0, 5.0, 6.0] [14.0, 16.0]
# expect: (1, 1, 2, 2, 4) 2 2 [9.0, 10.0, 13.0, 14.0]
# expect: [[5.0], [7.0]] [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]] [[7.0, 5.0, 7.0]]
# expect: [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]
# expect: (2, 3, 1) True
# expect: (2, 1, 4) True
# expect: [[0.5, 0.5], [0.0, 1.0]] [[-0.6931472, -0.6931472], [-1000.0, 0.0]]
# expect: True 0.0 True

print(minitorch.softmax is softmax, minitorch.maxpool2d is maxpool2d)
# expect: True True


def error(f):
    try:
        f()
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)
    return "no error"


print(error(lambda: avgpool2d(minitorch.rand((1, 2, 5, 4)), (2, 2))))
# expect: AssertionError: pooling (1, 2, 5, 4) by a 2x2 kernel: 5 rows do not split into 2
print(error(lambda: maxpool2d(minitorch.rand((1, 2, 4, 6)), (2, 4))))
# expect: AssertionError: pooling (1, 2, 4, 6) by a 2x4 kernel: 6 columns do not split into 4
print(error(lambda: avgpool2d(minitorch.rand((2, 4, 4)), (2, 2))))
# expect: ValueError: not enough values to unpack (expected 4, got 3)
