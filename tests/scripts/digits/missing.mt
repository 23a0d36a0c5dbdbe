# Run with MINITORCH_DIGITS naming a file that is not there (CMakeLists.txt): load_digits says
# which file it tried, and the session goes on.
# %%
import minitorch
try:
    minitorch.load_digits()
except ValueError as e:
    print(e)
print("still here")
# expect: load_digits(): /nonexistent/digits.csv.gz is not scikit-learn's digits: it cannot be opened
# expect: still here
