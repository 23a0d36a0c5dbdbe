# train() against MiniTorch's loop written by hand: the same seed, the same draws (dataset,
# weights, every epoch's shuffle through ds.batches), the same arithmetic — so the same weights,
# bit for bit, on fast (where train() runs its fused step) and on simple.
%backend fast
ds = dataset("xor", 50, seed=4)
m = mlp(2, 20, 1)
opt = sgd(m.parameters(), 0.05)
for epoch in range(25):
    total = 0.0
    for b in ds.batches(10):
        x = b[0]
        y = b[1]
        opt.zero_grad()
        out = m(x).view(y.shape[0])
        prob = out * y + (out - 1) * (y - 1)
        loss = -prob.log()
        (loss / y.shape[0]).sum().view(1).backward()
        opt.step()
        total = total + loss.sum()[0]
by_hand = total
ds2 = dataset("xor", 50, seed=4)
m2 = mlp(2, 20, 1)
train(m2, ds2, rate=0.05, epochs=25, log=0)
# expect: [..............................] epoch 0/25 starting
# expect-re: \[#+\] epoch 25/25 done
# expect-re: Trained 25 of 25 epochs on fast \(fused step\): loss [0-9.]+, correct [0-9]+/50, time per epoch .*
# expect: <training chart: 25 epochs on xor: decision boundary, loss and time per epoch>
p1 = m.parameters()
p2 = m2.parameters()
same = true
for i in range(6):
    same = same and (p1[i] == p2[i]).all()[0] == 1 and (p1[i].grad == p2[i].grad).all()[0] == 1
print(same)
# expect: True

%backend simple
ds3 = dataset("simple", 30, seed=8)
m3 = mlp(2, 5, 1)
opt3 = sgd(m3.parameters(), 0.5)
for epoch in range(10):
    for b in ds3.batches(7):
        opt3.zero_grad()
        out = m3(b[0]).view(b[1].shape[0])
        prob = out * b[1] + (out - 1) * (b[1] - 1)
        loss = -prob.log()
        (loss / b[1].shape[0]).sum().view(1).backward()
        opt3.step()
ds4 = dataset("simple", 30, seed=8)
m4 = mlp(2, 5, 1)
train(m4, ds4, rate=0.5, epochs=10, batch=7, log=5)
# expect: [..............................] epoch 0/10 starting
# expect-re: Epoch 0  loss [0-9.]+  correct [0-9]+/30  time per epoch .*
# expect-re: Epoch 5  loss [0-9.]+  correct [0-9]+/30  time per epoch .*
# expect-re: \[#+\] epoch 10/10 done
# expect-re: Trained 10 of 10 epochs on simple \(autodiff ops\): .*
# expect: <training chart: 10 epochs on simple: decision boundary, loss and time per epoch>
q3 = m3.parameters()
q4 = m4.parameters()
print((q3[2] == q4[2]).all()[0] == 1, (q3[5] == q4[5]).all()[0] == 1)
# expect: True True

plot(m4, ds4)
# expect: <decision boundary: decision boundary, simple, 30 points>
# a linear model has no sigmoid: a clear error (the other argument errors: tests/kernel/lib)
train(linear(2, 1), ds4)
# expect-error: TypeError: train(): the model must end in a sigmoid (its output is a probability): use mlp(in, hidden, 1), not linear(...)
