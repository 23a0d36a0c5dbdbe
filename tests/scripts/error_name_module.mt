# a module used before its import: the NameError says to import it (as Python 3.12 does)
x = 1
y = random.random()
# expect-tb:   Cell line 3, column 5:
# expect-error: NameError: name 'random' is not defined, did you forget to import 'random'?
