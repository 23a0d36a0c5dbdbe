# an index past a dim names the dim and its size
t = zeros(2, 3)
print(t[1, 2])
# expect: 0.0
t[2, 0]
# expect-tb:     t[2, 0]
# expect-error: IndexError: index 2 is out of bounds for dim 0 with size 2
