# minitorch.NAME is what MiniTorch's __init__ star-imports give it: of the files that define
# NAME, the one imported last (testing.py's over datasets.py's). The files a cell adds or
# drops later change the answer at once, also for a read that ran before.
# %%
%%minitorch_file datasets.py
def shared():
    return "datasets"
# %%
import minitorch


def read():
    return minitorch.shared()


print(read())
# %%
%%minitorch_file testing.py
def shared():
    return "testing"
# %%
print(read())
# %%
%%minitorch_file testing.py
def other():
    return "other"
# %%
print(read(), minitorch.other())
# expect: datasets
# expect: testing
# expect: testing other
