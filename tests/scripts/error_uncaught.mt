# an error no clause matches goes on after the finally block ran; the traceback points where it
# happened
try:
    xs = [1, 2, 3]
    print(xs[3])
except ZeroDivisionError:
    print("not reached")
finally:
    print("cleanup")
# expect: cleanup
# expect-tb:   Cell line 5, column 13:
# expect-tb:         print(xs[3])
# expect-error: IndexError: list index out of range
