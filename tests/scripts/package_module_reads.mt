# minitorch.NAME read in a loop as a module of the package (what every ScalarFunction.apply does
# with minitorch.scalar), which the kernel keeps between reads, while what answers the name
# changes: a star-imported file (module.py here) that comes to export the same name binds over
# the module, as MiniTorch's star imports do; a name the file binds but does not export (its
# __all__ leaves it out) leaves the module, until its __all__ list grows to name it, with no name
# of the file coming or going; the file rewritten without it gives the module back; a student's
# own scalar.py replaces the kernel's. Kernel-only (the package is the kernel's), written by
# hand from those rules.
# %%
%%minitorch_file module.py
__all__ = ["Module"]


class Module:
    pass
# %%
import minitorch


def reads():
    return [minitorch.scalar.__name__ if hasattr(minitorch.scalar, "__name__")
            else minitorch.scalar for _ in range(3)]


print(reads())
# expect: ['minitorch.scalar', 'minitorch.scalar', 'minitorch.scalar']
# %%
%%minitorch_file module.py
__all__ = ["Module", "scalar"]
scalar = "module.py's scalar"


class Module:
    pass
# %%
print(reads())
# expect: ["module.py's scalar", "module.py's scalar", "module.py's scalar"]
# %%
%%minitorch_file module.py
__all__ = ["Module"]
scalar = "not exported"


class Module:
    pass
# %%
exports = minitorch.module.__all__
print(reads())
# expect: ['minitorch.scalar', 'minitorch.scalar', 'minitorch.scalar']
exports.append("scalar")
print(reads())
# expect: ['not exported', 'not exported', 'not exported']
# %%
%%minitorch_file module.py
__all__ = ["Module"]


class Module:
    pass
# %%
print(reads())
# expect: ['minitorch.scalar', 'minitorch.scalar', 'minitorch.scalar']
print(minitorch.scalar)
# expect: <module 'minitorch.scalar' (the kernel's minitorch/scalar.py)>
# %%
%%minitorch_file scalar.py
class Scalar:
    pass
# %%
print(reads(), minitorch.scalar)
# expect: ['minitorch.scalar', 'minitorch.scalar', 'minitorch.scalar'] <module 'minitorch.scalar' (%%minitorch_file scalar.py)>
