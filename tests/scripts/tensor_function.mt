# minitorch.Function (tensor_functions.py's) subclassed in a cell, as Module 4's Max is: apply
# runs forward on the inputs detached with a Context, and backward() calls the class's backward,
# its gradients summed back over broadcast dims, a number as that value everywhere; then the
# mistakes a student makes, each a clear error that leaves the session as it was.
# %%
import minitorch
from minitorch import Function, Context, tensor


class Scale(Function):
    @staticmethod
    def forward(ctx, a, b, c):
        ctx.save_for_backward(a, b, c)
        return a * b + c

    @staticmethod
    def backward(ctx, grad_output):
        a, b, c = ctx.saved_values
        return grad_output * b, grad_output * a, grad_output


a = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
b = tensor([[10.0, 20.0, 30.0]], requires_grad=True)
c = tensor([0.5], requires_grad=True)
out = Scale.apply(a, b, c)
print(out.tolist(), out.requires_grad())
out.sum().backward()
print(a.grad.tolist(), b.grad.tolist(), c.grad.tolist())
print(minitorch.tensor_functions.Function is Function, issubclass(Scale, Function))
# %% forward sees its inputs detached; a Function of inputs without grad records nothing
class Peek(Function):
    @staticmethod
    def forward(ctx, x):
        print("forward sees", x.requires_grad(), type(ctx).__name__, ctx.no_grad)
        ctx.save_for_backward(x)
        return x * 2.0

    @staticmethod
    def backward(ctx, d):
        return 0.0


y = Peek.apply(tensor([1.0, 2.0]))
print(y.requires_grad(), y.tolist())
z = tensor([1.0, 2.0], requires_grad=True)
Peek.apply(z).sum().backward()
print(z.grad.tolist())
# %% a Function that keeps its own result for backward (as Max does), used many times: no cycle
class Square(Function):
    @staticmethod
    def forward(ctx, x):
        out = x * x
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, d):
        x, out = ctx.saved_values
        return d * 2.0 * x


w = tensor([3.0], requires_grad=True)
for i in range(1000):
    loss = Square.apply(Square.apply(w))
loss.backward()
print(loss.item(), w.grad.item())
# %% a constant input's gradient is never read (MiniTorch's is_constant): it may be left out,
# or be anything
class Half(Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * b

    @staticmethod
    def backward(ctx, d):
        return d * 2.0


class Junk(Function):
    @staticmethod
    def forward(ctx, a, b):
        return a * b

    @staticmethod
    def backward(ctx, d):
        return d * 3.0, "not a gradient"


u = tensor([1.0, 2.0], requires_grad=True)
Half.apply(u, tensor([2.0, 2.0])).sum().backward()
Junk.apply(u, tensor([5.0])).sum().backward()
print(u.grad.tolist())
# %% the mistakes: each a clear error
class Short(Function):
    @staticmethod
    def forward(ctx, a, b):
        return a + b

    @staticmethod
    def backward(ctx, d):
        return d


class Wrong(Function):
    @staticmethod
    def forward(ctx, a):
        return a.sum()

    @staticmethod
    def backward(ctx, d):
        return minitorch.zeros((4,))


class Number(Function):
    @staticmethod
    def forward(ctx, a):
        return 1.0

    @staticmethod
    def backward(ctx, d):
        return d


class Again(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * 1.0

    @staticmethod
    def backward(ctx, d):
        (a,) = ctx.saved_values
        b = a.detach()
        b.requires_grad_(True)
        (b * 2.0).sum().backward()
        return d


class Text(Function):
    @staticmethod
    def forward(ctx, a):
        return a * 1.0

    @staticmethod
    def backward(ctx, d):
        return "d"


v = tensor([1.0, 2.0, 3.0], requires_grad=True)
for attempt in [lambda: Short.apply(v, v).sum().backward(),
                lambda: Wrong.apply(v).backward(),
                lambda: Number.apply(v),
                lambda: Again.apply(v).sum().backward(),
                lambda: Text.apply(v).sum().backward(),
                lambda: Function.apply(v),
                lambda: Short.apply(v, 2.0),
                lambda: Short.apply()]:
    try:
        attempt()
        print("no error")
    except Exception as e:
        print(type(e).__name__ + ":", e)
print(v.grad)
# expect: [[10.5, 40.5, 90.5], [40.5, 100.5, 180.5]] True
# expect: [[10.0, 20.0, 30.0], [10.0, 20.0, 30.0]] [[5.0, 7.0, 9.0]] [6.0]
# expect: True True
# expect: forward sees False Context True
# expect: False [2.0, 4.0]
# expect: forward sees False Context False
# expect: [0.0, 0.0]
# expect: 81.0 108.0
# expect: [5.0, 5.0]
# expect: ValueError: Short.backward returned 1 gradient for 2 inputs: one per input of forward after ctx, in order (a tuple)
# expect: ValueError: Wrong.backward returned a gradient of shape (4,) for input 1, of shape (3,): a gradient has its input's shape (or one that broadcasts to it)
# expect: TypeError: Number.forward returned float: a Function's forward returns a tensor
# expect: RuntimeError: backward() cannot run inside a Function's backward: compute its gradients with tensor operations
# expect: TypeError: Text.backward returned str as the gradient of input 1: a gradient is a tensor or a number
# expect: TypeError: apply is called on a subclass of Function that defines forward(ctx, ...) and backward(ctx, grad_output): Max.apply(t, dim)
# expect: TypeError: Short.apply(): argument 2 is float, not a tensor: a Function's inputs are tensors (make a number one with tensor(x), or t._ensure_tensor(x))
# expect: TypeError: Short.apply() takes 1 to 4 tensors, not 0
# expect: None
