# MiniTorch's convolutions (Module 4) as the kernel provides them: Conv1dFun.apply and
# Conv2dFun.apply, minitorch.conv1d and conv2d, the names `from minitorch.fast_conv import`
# gives, on the simple and fast backends. The expected numbers are worked by hand from the
# definition (the input read as zeros past its end), as MiniTorch's test_conv1d_simple and
# test_conv2 work theirs; grad_check compares backward with central differences.
import minitorch
from minitorch.fast_conv import Conv1dFun, Conv2dFun, conv1d, conv2d

for backend in (minitorch.SimpleBackend, minitorch.FastTensorBackend):
    # MiniTorch's test_conv1d_simple: [0, 1, 2, 3] by [1, 2, 3]
    t = minitorch.tensor([0, 1, 2, 3], backend=backend).view(1, 1, 4)
    t.requires_grad_(True)
    w = minitorch.tensor([[1, 2, 3]], backend=backend).view(1, 1, 3)
    w.requires_grad_(True)
    out = Conv1dFun.apply(t, w)
    print(out.shape, [out[0, 0, x] for x in range(4)])
    # d sum / d t[j]: the weights that meet t[j]; d sum / d w[k]: the inputs w[k] meets
    out.sum().backward()
    print([t.grad[0, 0, j] for j in range(4)], [w.grad[0, 0, k] for k in range(3)])
    # MiniTorch's test_conv2: columns 0..3 by a 2x2 kernel of ones
    img = minitorch.tensor([[0, 1, 2, 3]] * 4, backend=backend).view(1, 1, 4, 4)
    ones = minitorch.tensor([[1, 1], [1, 1]], backend=backend).view(1, 1, 2, 2)
    print([[conv2d(img, ones)[0, 0, y, x] for x in range(4)] for y in range(4)])
    # the shapes of MiniTorch's tests, backward against central differences
    minitorch.grad_check(Conv1dFun.apply, minitorch.rand((1, 1, 6), backend=backend),
                         minitorch.rand((1, 1, 4), backend=backend))
    minitorch.grad_check(conv1d, minitorch.rand((2, 2, 6), backend=backend),
                         minitorch.rand((3, 2, 2), backend=backend))
    minitorch.grad_check(Conv2dFun.apply, minitorch.rand((2, 2, 6, 6), backend=backend),
                         minitorch.rand((3, 2, 2, 4), backend=backend))
    print(minitorch.conv2d(minitorch.rand((2, 2, 6, 6), backend=backend),
                           minitorch.rand((3, 2, 2, 4), backend=backend)).shape)
# expect: (1, 1, 4) [8.0, 14.0, 8.0, 3.0]
# expect: [1.0, 3.0, 6.0, 6.0] [6.0, 6.0, 5.0]
# expect: [[2.0, 6.0, 10.0, 6.0], [2.0, 6.0, 10.0, 6.0], [2.0, 6.0, 10.0, 6.0], [1.0, 3.0, 5.0, 3.0]]
# expect: (2, 3, 6, 6)
# expect: (1, 1, 4) [8.0, 14.0, 8.0, 3.0]
# expect: [1.0, 3.0, 6.0, 6.0] [6.0, 6.0, 5.0]
# expect: [[2.0, 6.0, 10.0, 6.0], [2.0, 6.0, 10.0, 6.0], [2.0, 6.0, 10.0, 6.0], [1.0, 3.0, 5.0, 3.0]]
# expect: (2, 3, 6, 6)

print(minitorch.conv1d is conv1d, minitorch.Conv2dFun is Conv2dFun)
# expect: True True


def error(f):
    try:
        f()
    except Exception as e:
        return "%s: %s" % (type(e).__name__, e)
    return "no error"


print(error(lambda: conv1d(minitorch.rand((2, 3, 6)), minitorch.rand((4, 2, 3)))))
# expect: ShapeError: conv1d: input (2, 3, 6) has 3 channels, weight (4, 2, 3) takes 2 (its dim 1)
print(error(lambda: conv1d(minitorch.rand((2, 3, 6)), minitorch.rand((4, 3, 7)))))
# expect: ShapeError: conv1d: the kernel of weight (4, 3, 7) is wider than input (2, 3, 6)
print(error(lambda: conv2d(minitorch.rand((2, 3, 6, 6)), minitorch.rand((4, 3, 7, 3)))))
# expect: ShapeError: conv2d: the kernel of weight (4, 3, 7, 3) is taller than input (2, 3, 6, 6)
print(error(lambda: conv2d(minitorch.rand((2, 3, 6)), minitorch.rand((4, 3, 2)))))
# expect: ShapeError: conv2d takes input (batch, in_channels, h, w) and weight (out_channels, in_channels, kh, kw); got input (2, 3, 6) and weight (4, 3, 2)
print(error(lambda: conv1d(minitorch.rand((2, 3, 6)), [1, 2, 3])))
# expect: TypeError: conv1d() takes two tensors (input, weight); its weight is list
print(error(lambda: Conv1dFun.apply(minitorch.rand((1, 1, 4)))))
# expect-re: TypeError: .*apply\(\) (takes|missing).*
