# minitorch.load_digits(): scikit-learn's 8x8 handwritten digits, read from the copy its package
# ships. The expectations are what scikit-learn's own load_digits() gives in CPython: the count
# of each label, the pixel sums of a few images, the first image whole, the range of a pixel.
# %%
import minitorch
images, labels = minitorch.load_digits()
print(len(images), len(labels), len(images[0]), len(images[0][0]))
print([labels.count(k) for k in range(10)])
print([sum(sum(row) for row in images[i]) for i in (0, 1, 1000, 1796)], labels[1796])
print(max(max(max(r) for r in img) for img in images), min(min(min(r) for r in img) for img in images))
print(images[0])
# %% a second call gives a fresh copy: changing one leaves the next call's as it was
images[0][0][0] = 99.0
print(minitorch.load_digits()[0][0][0][0])
# %% as tensors for a network: (N, 1, 8, 8) scaled to [0, 1]
X = minitorch.tensor(minitorch.load_digits()[0][:100]).view(100, 1, 8, 8) / 16.0
print(X.shape, X.max().item() <= 1.0)
# expect: 1797 1797 8 8
# expect: [178, 182, 177, 183, 181, 182, 181, 179, 174, 180]
# expect: [294.0, 313.0, 268.0, 392.0] 8
# expect: 16.0 0.0
# expect: [[0.0, 0.0, 5.0, 13.0, 9.0, 1.0, 0.0, 0.0], [0.0, 0.0, 13.0, 15.0, 10.0, 15.0, 5.0, 0.0], [0.0, 3.0, 15.0, 2.0, 0.0, 11.0, 8.0, 0.0], [0.0, 4.0, 12.0, 0.0, 0.0, 8.0, 8.0, 0.0], [0.0, 5.0, 8.0, 0.0, 0.0, 9.0, 8.0, 0.0], [0.0, 4.0, 11.0, 0.0, 1.0, 12.0, 7.0, 0.0], [0.0, 2.0, 14.0, 5.0, 10.0, 12.0, 0.0, 0.0], [0.0, 0.0, 6.0, 13.0, 10.0, 0.0, 0.0, 0.0]]
# expect: 0.0
# expect: (100, 1, 8, 8) True
