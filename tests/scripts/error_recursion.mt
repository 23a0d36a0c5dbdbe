# unbounded recursion is an error, not a crash
def down(n):
    return down(n + 1)
down(0)
# expect-error: RecursionError: maximum recursion depth exceeded in down() (1000 calls deep)
