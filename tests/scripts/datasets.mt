# MiniTorch's datasets: the same points as Python's random.seed(42) then random.random() in
# datasets.py (values computed with CPython's random module, rounded as tensors print)
ds = dataset("xor", n=5, seed=42)
print(ds)
# expect: dataset('xor', n=5): 5 points, 2 of class 1, 3 of class 0
print(ds.X)
# expect: tensor([[0.6394, 0.0250],
# expect:         [0.2750, 0.2232],
# expect:         [0.7365, 0.6767],
# expect:         [0.8922, 0.0869],
# expect:         [0.4219, 0.0298]], shape=(5, 2), backend=fast)
print(ds.y)
# expect: tensor([1., 0., 0., 1., 0.], shape=(5,), backend=fast)
# spiral draws nothing and has 2*(n//2) points (some outside the unit square, as in MiniTorch)
print(dataset("spiral", 5).X)
# expect: tensor([[ 1.7390,  0.3346],
# expect:         [ 0.7314, -0.9820],
# expect:         [ 0.3346, -0.7390],
# expect:         [-0.9820,  0.2686]], shape=(4, 2), backend=fast)
print(type(ds), ds.n, ds.name, ds.X.shape)
# expect: <class 'dataset'> 5 xor (5, 2)
dataset("circle", 0)
# expect-error: ValueError: a circle dataset has 1 to 100000000 points, not 0
