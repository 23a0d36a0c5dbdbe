# view() of a permuted tensor says to call contiguous() first
a = ones(2, 3)
print(a.permute(1, 0).contiguous().view(6).shape)
# expect: (6,)
a.permute(1, 0).view(6)
# expect-error: ShapeError: view needs a contiguous tensor; this one (shape (3, 2), strides (1, 3)) is not: call contiguous() first
