# decorators: @expr above a def calls expr with the function and binds the name to the result
log = []
def register(fn):
    log.append(len(log))
    return fn

@register
def first():
    return 1

@register
def second():
    return 2

print(log, first(), second())
# expect: [0, 1] 1 2

# a decorator may return anything: here another function
def twice(x):
    return 2 * x

def replace_with_twice(fn):
    return twice

@replace_with_twice
def ignored(x):
    return x

print(ignored(21))
# expect: 42

# @name(args): the call's result is the decorator
counts = {"made": 0}
def counting(start):
    counts["made"] = start
    return register

@counting(10)
def third():
    return 3

print(counts, log, third())
# expect: {'made': 10} [0, 1, 2] 3

# applied bottom-up: the nearest one first
order = []
def mark_a(fn):
    order.append("a")
    return fn

def mark_b(fn):
    order.append("b")
    return fn

@mark_a
@mark_b
def both():
    return "both"

print(order, both())
# expect: ['b', 'a'] both

# @name.attr: a method works as a decorator (list.append returns None, so the name is None)
seen = []
@seen.append
def kept():
    return "kept"

print(seen[0](), kept)
# expect: kept None

# decorator expressions are evaluated before the def runs, top to bottom
trace = []
def deco(tag):
    trace.append("eval " + tag)
    return mark_a

@deco("outer")
@deco("inner")
def traced(x=trace.append("default")):
    return x

print(trace)
# expect: ['eval outer', 'eval inner', 'default']
