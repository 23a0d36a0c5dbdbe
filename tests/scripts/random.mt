# random: CPython's numbers for the same seed (expected lines from python3's random module),
# one generator shared with seed(), rand(), dataset() and minitorch.datasets; shuffle in
# CPython's order, as MiniTorch's training loop shuffles list(zip(X, y)).
import random
# expect: <module 'random'>
print(random)
random.seed(42)
# expect: 0.6394267984578837 0.025010755222666936 0.27502931836911926
print(random.random(), random.random(), random.random())
random.seed(0)
# expect: 0.8444218515250481
print(random.random())
random.seed(-7)
# expect: 0.32383276483316237
print(random.random())
random.seed(2**40 + 3)
# expect: 0.21978710637116716
print(random.random())
random.seed(1)
# expect: 2 5 -4 258793550908
print(random.randint(1, 6), random.randint(1, 6), random.randint(-5, 5), random.randint(0, 2**40))
# expect: 3 7 8
print(random.randint(3, 3), random.randrange(10), random.randrange(5, 9))
# expect: 2.6515929727227627 0.8661700534065395
print(random.uniform(2, 3), random.uniform(-1.5, 1.5))
# expect: 10 l 3 2
print(random.choice([10, 20, 30, 40]), random.choice("hello"), random.choice(range(100)), random.choice((1, 2)))
for s in [0, 1, 7, 1234]:
    random.seed(s)
    for n in [1, 2, 3, 10, 50]:
        xs = list(range(n))
        random.shuffle(xs)
        print(s, n, xs)
# expect: 0 1 [0]
# expect: 0 2 [0, 1]
# expect: 0 3 [2, 0, 1]
# expect: 0 10 [1, 0, 9, 5, 6, 2, 3, 7, 8, 4]
# expect: 0 50 [47, 35, 36, 7, 37, 24, 28, 23, 40, 25, 33, 13, 5, 11, 3, 10, 26, 29, 12, 2, 0, 49, 1, 46, 43, 14, 15, 17, 42, 31, 44, 20, 27, 22, 41, 30, 21, 4, 45, 19, 9, 38, 34, 16, 39, 6, 48, 18, 8, 32]
# expect: 1 1 [0]
# expect: 1 2 [1, 0]
# expect: 1 3 [1, 0, 2]
# expect: 1 10 [8, 2, 0, 9, 5, 3, 6, 7, 1, 4]
# expect: 1 50 [18, 29, 22, 3, 12, 46, 5, 45, 4, 2, 35, 10, 8, 30, 39, 43, 9, 25, 19, 21, 11, 26, 42, 15, 41, 32, 7, 16, 33, 23, 49, 13, 47, 44, 34, 36, 40, 48, 20, 6, 37, 14, 17, 28, 0, 38, 27, 24, 1, 31]
# expect: 7 1 [0]
# expect: 7 2 [0, 1]
# expect: 7 3 [2, 1, 0]
# expect: 7 10 [3, 6, 5, 7, 9, 4, 2, 8, 1, 0]
# expect: 7 50 [10, 23, 12, 32, 33, 28, 22, 40, 46, 29, 0, 24, 1, 16, 31, 20, 11, 6, 19, 44, 48, 45, 21, 43, 30, 18, 34, 17, 47, 13, 9, 8, 2, 39, 38, 25, 41, 42, 37, 14, 7, 36, 3, 49, 35, 5, 15, 4, 26, 27]
# expect: 1234 1 [0]
# expect: 1234 2 [0, 1]
# expect: 1234 3 [1, 2, 0]
# expect: 1234 10 [4, 5, 3, 6, 7, 2, 8, 9, 0, 1]
# expect: 1234 50 [13, 49, 23, 3, 38, 46, 12, 10, 25, 33, 24, 37, 21, 28, 19, 45, 14, 6, 40, 27, 48, 36, 43, 20, 2, 17, 26, 8, 1, 18, 16, 42, 35, 44, 34, 4, 15, 31, 32, 0, 7, 11, 5, 9, 29, 47, 30, 39, 41, 22]
random.seed(3)
c = []
for i in range(8):
    c.append(([0.1 * i, 0.2 * i], i % 2))
random.shuffle(c)
# expect: [([0.0, 0.0], 0), ([0.5, 1.0], 1), ([0.7000000000000001, 1.4000000000000001], 1), ([0.2, 0.4], 0), ([0.1, 0.2], 1), ([0.6000000000000001, 1.2000000000000002], 0), ([0.4, 0.8], 0), ([0.30000000000000004, 0.6000000000000001], 1)]
print(c)
random.seed(7)
t = rand(3)
# expect: 0.07243628666754276
print(random.random())
random.seed(1)
d = dataset("simple", 4)
# expect: 0.0938595867742349
print(random.random())
seed(11)
# expect: 0.4523795535098186
print(random.random())
import minitorch
random.seed(2)
g = minitorch.datasets["Xor"](5)
# expect: 5 [0, 0, 0, 1, 0]
print(g.N, g.y)
# expect: (0.9560342718892494, 0.9478274870593494) (0.6059441656784624, 0.6068017336408379)
print(g.X[0], g.X[4])
# expect: 0.5812040171120031
print(random.random())
random.seed(2)
# expect: Graph(N=3, X=[(0.9560342718892494, 0.9478274870593494), (0.05655136772680869, 0.08487199515892163), (0.8354988781294496, 0.7359699890685233)], y=[1, 1, 1])
print(minitorch.datasets["Circle"](3))
# expect: (-0.9820474361392928, 0.2686228251686239)
print(minitorch.datasets["Spiral"](4).X[3])


# getstate() is CPython's tuple for the same seed and draws; setstate() of it draws the same
# numbers again, and the kernel's seed() and rand() share the state
random.seed(1)
s = random.getstate()
# expect: 3 2147483648 163610392 1781494222 624 None 625
print(s[0], s[1][0], s[1][1], s[1][623], s[1][624], s[2], len(s[1]))
a = [random.random() for _ in range(3)]
s3 = random.getstate()
# expect: 6 1634707757
print(s3[1][624], s3[1][5])
random.setstate(s)
# expect: True
print(a == [random.random() for _ in range(3)])
random.setstate(s)
t = rand((3,))
random.setstate(s)
# expect: True
print([round(x, 6) for x in t.tolist()] == [round(random.random(), 6) for _ in range(3)])
for bad in [(3, (1, 2), None), (3, s[1][:624] + (625,), None), (3, s[1][:623] + (-1, 624), None), (3,)]:
    try:
        random.setstate(bad)
    except (ValueError, OverflowError) as e:
        print(type(e).__name__, e)
# expect: ValueError state vector is the wrong size
# expect: ValueError invalid state
# expect: OverflowError can't convert negative value to unsigned int
# expect: ValueError not enough values to unpack (expected 3, got 1)
