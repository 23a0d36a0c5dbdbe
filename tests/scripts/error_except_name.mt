# an except clause's class is looked up only when an error reaches it; a misspelt name is then a
# NameError that suggests the class (the exception classes are names like the builtins)
try:
    print("no error, the clause is not looked at")
except ValueEror:
    pass
# expect: no error, the clause is not looked at
try:
    int("seven")
except ValueEror:
    pass
# expect-tb:   Cell line 10, column 8:
# expect-tb:     except ValueEror:
# expect-tb:            ^
# expect-error: NameError: name 'ValueEror' is not defined, did you mean 'ValueError'?
