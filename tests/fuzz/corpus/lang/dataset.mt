ds = dataset("xor", n=12, seed=3)
ds
print(ds.X.shape, ds.y.sum(), ds.n, ds.name)
%plot_renderer svg
display(dataset("spiral", 9))
