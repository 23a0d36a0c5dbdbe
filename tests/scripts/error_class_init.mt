# calling a class with the wrong arguments names the method as Python does
class Linear:
    def __init__(self, in_size, out_size):
        self.shape = (in_size, out_size)


print(Linear(2, 3).shape)
# expect: (2, 3)
Linear(2, 3, 4)
# expect-tb:   Cell line 9, column 1:
# expect-error: TypeError: Linear.__init__() takes 3 positional arguments but 4 were given
