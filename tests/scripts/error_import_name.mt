# a name the module does not have is Python's ImportError, with a suggestion
from minitorch import tensor, zeross
# expect-tb:   Cell line 2, column 31:
# expect-error: ImportError: cannot import name 'zeross' from 'minitorch', did you mean 'zeros'?
