# a cell is not in a package: a relative import says so
from .tensor_data import to_index
# expect-tb:   Cell line 2, column 6:
# expect-error: SyntaxError: relative imports ('from . import x') are not supported in the MiniTorch language: a cell is not in a package
