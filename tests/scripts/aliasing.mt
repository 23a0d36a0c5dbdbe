# map(fn, t, out=o) where t is another view of o's storage reads t's values as they were before
# the map, as numpy does with out= (engine/src/alias.c); the expected values are worked out by
# hand from the tensors' definitions
def tenfold(x):
    return x * 10

# simple backend, element by element: x = 10 * x^T in place
xs = tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]).to("simple")
map(tenfold, xs.permute(1, 0), out=xs)
print(xs.tolist())
# expect: [[10.0, 40.0, 70.0], [20.0, 50.0, 80.0], [30.0, 60.0, 90.0]]

# fast backend, 64 x 64 (two blocks of 2,048 elements): big[i, j] = 64 * i + j, then
# big = 10 * big^T, so big[i, j] = 10 * (64 * j + i)
big = zeros(64, 64)
for i in range(64):
    for j in range(64):
        big[i, j] = 64 * i + j
map(tenfold, big.permute(1, 0), out=big)
print(big[0, 1], big[1, 0], big[32, 0], big[0, 32], big[63, 62])
# expect: 640.0 10.0 320.0 20480.0 40310.0

# the output itself as the input is an ordinary in-place map
map(tenfold, xs, out=xs)
print(xs[0, 1], xs[2, 2])
# expect: 400.0 900.0

# backward after an element assignment: a graph recorded after the write uses the new value
xa = tensor([1.0, 2.0, 3.0], requires_grad=true)
xa[0] = 100
ya = xa * xa
ya.sum().backward()
print(xa.grad.tolist())
# expect: [200.0, 4.0, 6.0]
