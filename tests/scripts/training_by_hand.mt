# MiniTorch's Task 3.5 loop written by hand: dataset, mlp, sgd, batch-mean binary cross-entropy
# as MiniTorch writes it (prob = out*y + (out-1)*(y-1), loss = -log(prob)), backward, step.
ds = dataset("simple", 50, seed=1)
m = mlp(2, 10, 1)
opt = sgd(m.parameters(), 0.5)
X = ds.X
y = ds.y
for epoch in range(150):
    opt.zero_grad()
    out = m(X).view(50)
    prob = out * y + (out - 1) * (y - 1)
    loss = -prob.log()
    (loss / 50).sum().view(1).backward()
    opt.step()
    total = loss.sum()[0]
    if epoch == 0:
        first = total
correct = ((m(X).view(50) > 0.5) == y).sum()[0]
# the loss falls and the network separates the two classes (y = 1 iff x1 < 0.5)
print(total < first / 4, correct >= 46)
# expect: True True
print(type(m), type(opt), len(m.parameters()))
# expect: <class 'model'> <class 'sgd'> 6
