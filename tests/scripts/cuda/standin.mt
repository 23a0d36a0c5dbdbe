# The cuda backend in the language, through the host stand-in of its library
# (tests/engine/cuda_standin.c: simple's loops behind the device API). ctest runs the scripts of
# tests/scripts/cuda/ with MT_CUDA_PLUGIN naming the stand-in, so this checks what the language does
# with device tensors (showing them, reading elements and lists, .to both ways, autodiff,
# train()) on machines without a GPU; the kernels' own arithmetic is checked on a GPU.
print(cuda_available())
# expect: True
x = tensor([[1.0, 2.0], [3.0, 4.0]])
y = x.to("cuda")
print(y)
# expect: tensor([[1., 2.],
# expect:         [3., 4.]], shape=(2, 2), backend=cuda)
print((y @ y.permute(1, 0)).to("fast"))
# expect: tensor([[ 5., 11.],
# expect:         [11., 25.]], shape=(2, 2), backend=fast)
print(y.sum(0), y.tolist(), y[1, 0])
# expect: tensor([[4., 6.]], shape=(1, 2), backend=cuda) [[1.0, 2.0], [3.0, 4.0]] 3.0

# autodiff on the device, and back across .to(): d/dx sum((2x)^2) = 8x
x.requires_grad_(True)
z = x.to("cuda") * 2
(z * z).sum().backward()
print(x.grad)
# expect: tensor([[ 8., 16.],
# expect:         [24., 32.]], shape=(2, 2), backend=fast)

# train() on cuda runs its fused kernel (cuda/train_step.h, one launch per epoch; the stand-in
# runs the same code on the host): the arithmetic of simple's autodiff ops, so the same weights
# and last gradients as on simple, bit for bit
%backend simple
seed(5)
m1 = mlp(2, 10, 1)
train(m1, dataset("split", 50, seed=2), rate=0.5, epochs=10, log=0)
# expect: [..............................] epoch 0/10 starting
# expect-re: \[#+\] epoch 10/10 done
# expect-re: Trained 10 of 10 epochs on simple \(autodiff ops\): loss [0-9.]+, correct [0-9]+/50, .*
# expect: <training chart: 10 epochs on split: decision boundary, loss and time per epoch>
%backend cuda
seed(5)
m2 = mlp(2, 10, 1)
train(m2, dataset("split", 50, seed=2), rate=0.5, epochs=10, log=0)
# expect: [..............................] epoch 0/10 starting
# expect-re: \[#+\] epoch 10/10 done
# expect-re: Trained 10 of 10 epochs on cuda \(fused kernel\): loss [0-9.]+, correct [0-9]+/50, .*
# expect: <training chart: 10 epochs on split: decision boundary, loss and time per epoch>
p1 = m1.parameters()
p2 = m2.parameters()
same = true
for i in range(6):
    same = same and p2[i].backend == "cuda" and (p1[i] == p2[i].to("simple")).all()[0] == 1
    same = same and (p1[i].grad == p2[i].grad.to("simple")).all()[0] == 1
print(same)
# expect: True

# a loss that turns inf on the fused kernel's path (one step per epoch, rate 5: epoch 0 is
# finite, epoch 1 is not): the run stops there and the parameters are those after epoch 0, as
# on simple's ops, bit for bit (the message itself goes to stderr: tests/kernel/lib/test_training.c)
%backend simple
seed(5)
m3 = mlp(2, 100, 1)
train(m3, dataset("split", 50, seed=1), rate=5.0, epochs=30, batch=50, log=0)
# expect: [..............................] epoch 0/30 starting
# expect-re: \[#?\.+\] epoch 1/30 done
# expect-re: Stopped after 1 of 30 epochs on simple \(autodiff ops\): loss [0-9.]+, correct [0-9]+/50, .*
# expect: <training chart: 1 epoch on split: decision boundary, loss and time per epoch>
%backend cuda
seed(5)
m4 = mlp(2, 100, 1)
train(m4, dataset("split", 50, seed=1), rate=5.0, epochs=30, batch=50, log=0)
# expect: [..............................] epoch 0/30 starting
# expect-re: \[#?\.+\] epoch 1/30 done
# expect-re: Stopped after 1 of 30 epochs on cuda \(fused kernel\): loss [0-9.]+, correct [0-9]+/50, .*
# expect: <training chart: 1 epoch on split: decision boundary, loss and time per epoch>
p3 = m3.parameters()
p4 = m4.parameters()
same = true
for i in range(6):
    same = same and (p3[i] == p4[i].to("simple")).all()[0] == 1 and (abs(p3[i]) < 1e30).all()[0] == 1
print(same)
# expect: True

# user functions on cuda: the program and its generated kernel go to the library (the stand-in
# runs the program; a GPU runs the kernel NVRTC compiled), with broadcasting, into cuda tensors
def blend(a, b):
    return 0.3 * a + 0.7 * b
def larger(a, b):
    return a if a > b else b
u = tensor([[1.0, 5.0, 3.0], [4.0, -2.0, 6.0]], backend="cuda")
v = tensor([10.0, 20.0, 30.0], backend="cuda")
z = zip(blend, u, v)
print(z.backend, z.tolist())
# expect: cuda [[7.3, 15.5, 21.9], [8.2, 13.4, 22.8]]
print(reduce(larger, u, 1, start=-1e9).tolist(), map(abs, u).tolist())
# expect: [[5.0], [6.0]] [[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]]
print(zip(larger, u, u.permute(1, 0).contiguous().permute(1, 0)).tolist())  # strided operand
# expect: [[1.0, 5.0, 3.0], [4.0, -2.0, 6.0]]

# tensors of two backends meet on the left one's, as MiniTorch moves its right operand
z = y + x
print(z.backend, z.tolist(), (x * y).backend, (x == y).tolist())
# expect: cuda [[2.0, 4.0], [6.0, 8.0]] fast [[1.0, 1.0], [1.0, 1.0]]

# a shape mismatch on cuda is the same ShapeError as on the host
y @ tensor([[1.0, 2.0, 3.0]]).to("cuda")
# expect-error: ShapeError: matmul: inner sizes differ: (2, 2) @ (1, 3) (2 columns against 1 rows)
