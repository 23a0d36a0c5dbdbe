# help() of an exception class (or of an exception) shows its class line, its doc and where it
# sits in the hierarchy
help(ZeroDivisionError)
# expect: class ZeroDivisionError(ArithmeticError)
# expect:
# expect: Second argument to a division or modulo operation was zero.
# expect:
# expect: Built-in exception: ZeroDivisionError < ArithmeticError < Exception < BaseException. `except C:` catches C and every class deriving from it; C(args) makes one (e.args holds args, str(e) the message), and `raise C("message")` raises it.
try:
    raise ShapeError("shapes (2, 3) and (4,) do not broadcast")
except RuntimeError as e:
    help(e)
# expect: class ShapeError(IndexingError)
# expect:
# expect: Tensor shapes that do not fit an operation (broadcasting, matmul, view). An IndexingError, as a broadcast failure is in MiniTorch, so a RuntimeError too, as PyTorch's shape errors are.
# expect:
# expect: Built-in exception: ShapeError < IndexingError < RuntimeError < Exception < BaseException. `except C:` catches C and every class deriving from it; C(args) makes one (e.args holds args, str(e) the message), and `raise C("message")` raises it.
