# an exception whose str() raises is raised all the same; its traceback's last line is what
# CPython's shows then
class S:
    def __str__(self):
        raise KeyError("boom in str")
raise ValueError(S())
# expect-tb:   Cell line 6, column 1:
# expect-error: ValueError: <exception str() failed>
