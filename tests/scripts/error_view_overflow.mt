# view() sizes whose product wraps around int64 ((2^60 + 1) * 16 is 16 modulo 2^64) are refused
a = zeros(16)
print(a.view(2, -1, 4).shape)
# expect: (2, 2, 4)
v = a.view(2**60 + 1, 16)
# expect-error: ShapeError: cannot view a tensor of shape (16,) (16 elements) as (1152921504606846977, 16)
print(v[1, 0])
