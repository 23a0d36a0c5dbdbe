# IPython's help syntax is not in the kernel: the SyntaxError says what to use instead
x = 3
x?
# expect-tb:   Cell line 3, column 2:
# expect-error: SyntaxError: IPython's '?' help is not supported in the MiniTorch kernel: use help(x), or Shift-Tab on the name
