# a broadcast that cannot work names both shapes
a = zeros(5, 2)
b = zeros(5)
print("before")
# expect: before
a + b
# expect-error: ShapeError: shapes (5, 2) and (5,) cannot be broadcast: dim -1 is 2 in one and 5 in the other (sizes must be equal or 1)
