# output printed before an error is kept; the error points at the operator
print("before")
# expect: before
n = 1
"a" + n
# expect-tb:   Cell line 5, column 5:
# expect-tb:     "a" + n
# expect-tb:         ^
# expect-error: TypeError: can only concatenate str (not "int") to str
