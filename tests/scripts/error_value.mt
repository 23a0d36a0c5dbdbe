# a ragged nested list cannot become a tensor
tensor([[1, 2], [3]])
# expect-error: ValueError: tensor(): ragged nested list: data[1] has 1 items but data[0] has 2
