# `from m import *` names nothing: the language asks for the names
from minitorch import *
# expect-tb:   Cell line 2, column 23:
# expect-error: SyntaxError: 'from ... import *' is not supported in the MiniTorch language: name what you import
