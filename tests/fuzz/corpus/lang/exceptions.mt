def f(x):
    try:
        return 1 / x
    except (ZeroDivisionError, ValueError) as e:
        raise RuntimeError("bad") from e
    else:
        pass
    finally:
        del x
xs = [1, 2, 3]
for i in range(3):
    try:
        f(i)
    except RuntimeError:
        del xs[0]
        continue
    except:
        raise
    finally:
        e = KeyError("k")
try:
    raise e
except LookupError as err:
    print(err.args, repr(err), ValueError.__name__)
