# line_chart(x, series, ...): the chart's text/plain names it; what it refuses, and why.
xs = [i / 10 for i in range(-50, 51)]
line_chart(xs, {"sigmoid": [sigmoid(v) for v in xs], "relu": [relu(v) for v in xs]}, title="f")
# expect: <line chart: f>
line_chart((1, 2, 3), {"a": (1, 2, 4)})
# expect: <line chart: untitled>
print(line_chart([1], {"a": [True]}, x_title="n", y_title=None))
# expect: <line chart: untitled>
# expect: None
for args in [([1, 2], {"a": [1]}), ([1, 2], [1, 2]), ([], {"a": []}), ([1], {"a": ["x"]}),
             ([1], {1: [1]}), ([1], {}), ("12", {"a": [1]}), (list(range(2001)), {"a": [1]})]:
    try:
        line_chart(*args)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
# expect: ValueError line_chart(): series["a"] must hold as many numbers as x
# expect: TypeError line_chart(): series must be a dict of 1 to 8 lines, each a name and its y values ({"relu": ys}), not list
# expect: ValueError line_chart(): x must hold 1 to 2000 numbers
# expect: ValueError line_chart(): series["a"] must be a list or tuple of numbers
# expect: TypeError line_chart(): a line's name must be a string, not int
# expect: TypeError line_chart(): series must be a dict of 1 to 8 lines, each a name and its y values ({"relu": ys}), not dict
# expect: TypeError line_chart(): x must be a list or tuple of numbers
# expect: ValueError line_chart(): x must hold 1 to 2000 numbers
line_chart([1], {"a": [1]}, title=3)
# expect-error: TypeError: line_chart(): title must be a string, not int
