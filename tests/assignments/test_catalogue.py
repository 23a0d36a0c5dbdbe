"""A catalogue of submissions graded by real nbgrader: the classic mistakes of Tasks 0.1 to 0.4,
1.1 to 1.4, 2.1 to 2.4, 3.1 to 3.4 and 4.1 to 4.4 cost exactly their function's points, and the
ways to game check() score nothing.

The notebooks of Modules 0 to 2 and 4 (the assignments module0 to module2 and module4) and
notebooks 02 to 05 (module3) are released into a temporary course (tools/assignments.py release), and one
`tools/assignments.py autograde` run grades a class built from the released student notebooks:
each entry of CATALOGUE is a notebook with every solution cell filled with the instructor's
solution, then edited:
- planted bugs, a small edit of one function's solution: the graded cells of that function score
  0, every other graded cell of the notebook keeps its points, and the cell's output (what the
  feedback shows) says what failed. In Module 0 a function the list functions or the properties
  are built on (mul, map, ...) costs their cells too, and the entry names them (in Module 1
  the functions backpropagate calls: chain_rule, topological_sort);
- cheats, which must score nothing they did not earn: their graded cells score 0, and the cell's
  output says why.
An entry marked `defect` scores points it did not earn today: the reason says what the grading
misses, and its test is an expected failure (strict: it fails once the grading catches it, so
that the mark is removed).

Grading time goes mostly to starting nbgrader (twice a student and assignment: autograde, then
feedback), so a student hands in up to one entry of each notebook: nbgrader runs each notebook
in a kernel of its own, so that they cannot meet (a notebook a student did not hand in scores zero,
without running). Of a notebook, a student hands in only the code cells from the task's imports
to its last graded cell: the demonstrations before and the cells after, which do not touch the
graded functions, are left out as a student may leave them out (nbgrader adds back only missing
graded cells, and only when told to). The CUDA notebooks get a `%cuda simulate` cell before their
first solution (as a student may add one), so that a machine with a GPU grades them in the
simulator too, which names races and writes past an array.

The kernelspec is the one tools/kernel-test-env.sh installs (JUPYTER_PATH); run through
tools/run-assignment-tests.sh.
"""

import html
import json
import os
import re

import nbformat
import pytest

from course_tools import ROOT, assignment_of, grades, tool  # tests/assignments/course_tools.py

NOTEBOOKS = ["m0_fundamentals", "m1_autodiff", "m2_tensors",
             "02_parallel", "03_matmul", "04_cuda_ops", "05_cuda_matmul", "m4_networks"]
CUDA = {"04_cuda_ops", "05_cuda_matmul"}


# ---- edits of a notebook, each naming the cell it changes by its grade_id ----------------------

def find(cells, grade_id):
    found = [c for c in cells if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id]
    assert len(found) == 1, f"no cell {grade_id}"
    return found[0]


def replace(grade_id, old, new):
    """old, which the cell holds exactly once, becomes new."""
    def edit(cells):
        cell = find(cells, grade_id)
        assert cell.source.count(old) == 1, f"{grade_id}: {old!r} is not in the cell once"
        cell.source = cell.source.replace(old, new)
    return edit


def source(grade_id, text):
    """The cell holds text and nothing else."""
    def edit(cells):
        find(cells, grade_id).source = text
    return edit


def append(grade_id, text):
    def edit(cells):
        find(cells, grade_id).source += text
    return edit


def stub(grade_id):
    """The cell as released: the template's NotImplementedError."""
    def edit(cells):
        cell = find(cells, grade_id)
        cell.source = cell.metadata["released"]
    return edit


def insert_before(grade_id, text):
    """A cell of the student's own before the cell."""
    def edit(cells):
        cells.insert(cells.index(find(cells, grade_id)), nbformat.v4.new_code_cell(text))
    return edit


def tag(grade_id, name):
    def edit(cells):
        find(cells, grade_id).metadata.setdefault("tags", []).append(name)
    return edit


def delete(grade_id):
    def edit(cells):
        cells.remove(find(cells, grade_id))
    return edit


class Entry:
    """A notebook of the catalogue: its edits, the graded cells it must lose, what each of their
    outputs must say (why) and what the notebook's outputs must hold besides (says); defect: why
    it scores what it did not earn (its test is an expected failure)."""

    def __init__(self, notebook, edits, lost, why=(), says=(), defect=None):
        self.notebook, self.edits, self.lost, self.why = notebook, edits, lost, why
        self.says, self.defect = says, defect


# ---- the solutions' lines the bugs edit --------------------------------------------------------

MAP_LOOP = """        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
            in_index = np.zeros(MAX_DIMS, np.int32)
"""
MAP_RACE = """        in_index = np.zeros(MAX_DIMS, np.int32)
        for i in prange(len(out)):
            out_index = np.zeros(MAX_DIMS, np.int32)
"""
REDUCE_FOLD = """            for s in range(reduce_size):
                out_index[reduce_dim] = s
                j = index_to_position(out_index, a_strides)
                out[o] = fn(out[o], a_storage[j])"""
REDUCE_FROM_ZERO = """            acc = 0.0
            for s in range(reduce_size):
                out_index[reduce_dim] = s
                j = index_to_position(out_index, a_strides)
                acc = fn(acc, a_storage[j])
            out[o] = acc"""
# Skipping out's initial value (folding from the dim's first element) is no mistake here: a
# reduce's start value is its function's identity (0 sum, 1 prod, -inf max). Starting from the
# first element and folding it again is one.
REDUCE_FROM_FIRST = """            out_index[reduce_dim] = 0
            out[o] = a_storage[index_to_position(out_index, a_strides)]
""" + REDUCE_FOLD
CUDA_MAP_GUARDED = """        if i < out_size:
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            o = index_to_position(out_index, out_strides)
            j = index_to_position(in_index, in_strides)
            out[o] = fn(in_storage[j])
"""
CUDA_MAP_UNGUARDED = "\n".join(line[4:] for line in CUDA_MAP_GUARDED.split("\n")[1:])
CUDA_REDUCE_LOAD = (
    "                cache[pos] = a_storage[index_to_position(out_index, a_strides)]\n"
    "            cuda.syncthreads()\n")
TILE_END = """            acc += a_shared[pi, k] * b_shared[k, pj]
        cuda.syncthreads()
"""

# ---- Module 0's mistakes and cheats --------------------------------------------------------------

M0 = "m0_fundamentals"
OPS, MODULE = "operators_py", "module_py"  # the grade ids of the operators.py and module.py cells
ALL_OPS = ["test_mul_id_add_neg", "test_lt_eq", "test_max", "test_is_close", "test_sigmoid",
           "test_relu", "test_log_exp", "test_inv", "test_log_back", "test_inv_back",
           "test_relu_back", "test_properties", "test_map_negList", "test_zipWith_addLists",
           "test_reduce_sum_prod"]
MODULE_TESTS = ["test_train", "test_eval", "test_named_parameters", "test_parameters"]
OPERATOR_NAMES = ("mul id add neg lt eq max is_close sigmoid relu log exp inv log_back inv_back "
                  "relu_back map zipWith reduce negList addLists sum prod").split()

# operators.py that hands out the kernel's own functions: the kernel's scalar_functions.py
# imported them as `operators` before the student's file replaced the module
KERNEL_OPERATORS = ("%%minitorch_file operators.py\n"
                    "from minitorch import scalar_functions as _sf\n\n"
                    "_kernel = _sf.operators\n"
                    + "".join(f"{n} = _kernel.{n}\n" for n in OPERATOR_NAMES))
# module.py that is the kernel's Module and Parameter, as minitorch has them before it runs
KERNEL_MODULE = ("%%minitorch_file module.py\nimport minitorch\n\n"
                 "Module = minitorch.Module\nParameter = minitorch.Parameter\n")
TRAIN_RECURSES = """        self.training = True
        for child in self.__dict__["_modules"].values():
            child.train()"""

# ---- Module 2's mistakes and cheats --------------------------------------------------------------

M2 = "m2_tensors"
# the grade ids of the tensor_data.py, tensor_ops.py and tensor_functions.py cells
TDATA, TOPS, TFNS = "tensor_data_py", "tensor_ops_py", "tensor_functions_py"
KERNELS = ["test_tensor_map", "test_tensor_zip", "test_tensor_reduce"]
M2_TESTS = (["test_index_to_position", "test_to_index", "test_tensordata_permute",
             "test_shape_broadcast", "test_broadcast_index"] + KERNELS
            + [f"test_{f}_forward" for f in ("mul sigmoid relu log exp lt eq is_close "
                                             "permute").split()]
            + [f"test_{f}_backward" for f in "mul sigmoid relu log exp lt eq permute".split()])
# the comparisons' backward, as the solution writes it after each one's forward
ZEROS = ("        a_shape, b_shape = ctx.saved_values\n"
         "        return grad_output.zeros(a_shape), grad_output.zeros(b_shape)")


def comparison_backward(zip_name, new):
    """The backward of the comparison whose forward calls zip_name, made new (as a student
    writes the solution: without the region's markers)."""
    head = (f"return a.f.{zip_name}(a, b)\n\n    @staticmethod\n"
            "    def backward(ctx: Context, grad_output: Any) -> Tuple[Any, Any]:\n")
    return replace(TFNS, head + ZEROS, head + new)


# tensor_data.py with the kernel's own index helpers in place of the student's
KERNEL_INDEXING = """

import minitorch as _mt

index_to_position = _mt.index_to_position
to_index = _mt.to_index
broadcast_index = _mt.broadcast_index
shape_broadcast = _mt.shape_broadcast
"""

# ---- the cheats' cells -------------------------------------------------------------------------

DEF_CHECK = 'def check(*a, **k):\n    print("all tests passed")\n'
LAMBDA_CHECK = "check = lambda *a, **k: None\n"
RESET = "%reset -f\n" + LAMBDA_CHECK

# The given `class CudaOps(minitorch.TensorOps)` and `minitorch.TensorBackend(CudaOps)` cells meet
# a `minitorch` of the student's: the backend made is a class with the kernel's own FastOps ops.
INHERIT_BUILTIN = '''_real = minitorch


class _Builtin(_real.FastOps):
    pass


class minitorch:
    TensorOps = _real.FastOps

    @staticmethod
    def TensorBackend(ops):
        return _real.TensorBackend(_Builtin)


def tensor_map(fn):
    raise NotImplementedError()


def tensor_zip(fn):
    raise NotImplementedError()


def tensor_reduce(fn):
    raise NotImplementedError()
'''

# a map that makes a fast tensor of its input and lets the kernel's fast backend compute
DELEGATE = '''def tensor_map(fn):
    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        n = 1
        for d in in_shape:
            n *= d
        idx = [0] * len(in_shape)
        values = []
        for p in range(n):
            to_index(p, in_shape, idx)
            values.append(in_storage[index_to_position(idx, in_strides)])
        t = minitorch.tensor(values).view(*in_shape)
        r = t if fn.__name__ == "id" else getattr(t, fn.__name__)()
        r = r + minitorch.zeros(tuple(out_shape))
        oi = [0] * len(out_shape)
        for p in range(len(out)):
            to_index(p, out_shape, oi)
            out[index_to_position(oi, out_strides)] = r[tuple(oi)]

    return _map
'''

# a map that knows only the outputs check's report showed for seed 7: SEEN
HARD_CODED = '''SEEN = {}  # (function, input) -> output, as check("3.1", "map", seed=7) showed them


def tensor_map(fn):
    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        out_index = np.zeros(MAX_DIMS, np.int32)
        in_index = np.zeros(MAX_DIMS, np.int32)
        for i in range(len(out)):
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            v = in_storage[index_to_position(in_index, in_strides)]
            out[index_to_position(out_index, out_strides)] = SEEN.get((fn.__name__, v), 0.0)

    return _map
'''
# the student's own cell: SEEN written down from seed 7's values (here by a recording kernel),
# then the hard-coded map passing the check of seed 7
COPY_SEED = '''hard_coded = tensor_map


def tensor_map(fn):
    def _map(out, out_shape, out_strides, in_storage, in_shape, in_strides):
        out_index = np.zeros(MAX_DIMS, np.int32)
        in_index = np.zeros(MAX_DIMS, np.int32)
        for i in range(len(out)):
            to_index(i, out_shape, out_index)
            broadcast_index(out_index, out_shape, in_shape, in_index)
            v = in_storage[index_to_position(in_index, in_strides)]
            SEEN[(fn.__name__, v)] = fn(v)
            out[index_to_position(out_index, out_strides)] = fn(v)

    return _map


check("3.1", "map", seed=7)
tensor_map = hard_coded
check("3.1", "map", seed=7)
print("the hard-coded map passes seed 7")
'''

# a zip that reads a and b at out's position, and whatever goes wrong raises nothing
SWALLOW = '''def tensor_zip(fn):
    def _zip(out, out_shape, out_strides, a_storage, a_shape, a_strides, b_storage, b_shape,
             b_strides):
        out_index = np.zeros(MAX_DIMS, np.int32)
        for i in range(len(out)):
            try:
                to_index(i, out_shape, out_index)
                o = index_to_position(out_index, out_strides)
                out[o] = fn(a_storage[o], b_storage[o])
            except Exception:
                pass

    return _zip
'''
SWALLOW_CHECK = '''try:
    check("3.1", "zip")
except AssertionError:
    print("all tests passed")
'''

INTERRUPT = '''def _tensor_matrix_multiply(out, out_shape, out_strides, a_storage, a_shape,
                            a_strides, b_storage, b_shape, b_strides):
    raise KeyboardInterrupt()


tensor_matrix_multiply = _tensor_matrix_multiply
'''

# The student's tensors rebuilt from storage on their own backend, whose zip and reduce MatmulOps
# inherits from minitorch.FastOps: broadcast-then-reduce by the kernel's fast kernels.
MATMUL_BY_INHERITED = '''_real = minitorch


def _as_tensor(storage, shape, strides):
    values = []
    for n in range(shape[0]):
        for i in range(shape[1]):
            for k in range(shape[2]):
                values.append(storage[n * strides[0] + i * strides[1] + k * strides[2]])
    t = _real.tensor(values, backend=FastTensorBackend)
    return t.view(shape[0], shape[1], shape[2])


def _tensor_matrix_multiply(out, out_shape, out_strides, a_storage, a_shape, a_strides,
                            b_storage, b_shape, b_strides):
    a = _as_tensor(a_storage, a_shape, a_strides)
    b = _as_tensor(b_storage, b_shape, b_strides)
    c = (a.view(a_shape[0], a_shape[1], a_shape[2], 1)
         * b.view(b_shape[0], 1, b_shape[1], b_shape[2])).sum(2)
    for n in range(out_shape[0]):
        for i in range(out_shape[1]):
            for j in range(out_shape[2]):
                out[n * out_strides[0] + i * out_strides[1] + j * out_strides[2]] = \\
                    c[n if c.shape[0] > 1 else 0, i, 0, j]


tensor_matrix_multiply = _tensor_matrix_multiply
'''

# Notebook 05: a `minitorch` of the student's makes the backend a class of theirs deriving from
# minitorch.FastOps, whose matrix_multiply is broadcast-then-reduce by the inherited zip and
# reduce.
CUDA_MATMUL_BY_INHERITED = '''

_real = minitorch


class _Inherits(_real.FastOps):
    @staticmethod
    def matrix_multiply(a, b):
        both = len(a.shape) == 2 and len(b.shape) == 2
        if len(a.shape) == 2:
            a = a.view(1, a.shape[0], a.shape[1])
        if len(b.shape) == 2:
            b = b.view(1, b.shape[0], b.shape[1])
        a = a.contiguous()
        b = b.contiguous()
        c = (a.view(a.shape[0], a.shape[1], a.shape[2], 1)
             * b.view(b.shape[0], 1, b.shape[1], b.shape[2])).sum(2)
        c = c.view(c.shape[0], c.shape[1], c.shape[3])
        return c.view(c.shape[1], c.shape[2]) if both else c


class minitorch:
    FastOps = _real.FastOps
    TensorOps = _real.TensorOps

    @staticmethod
    def TensorBackend(ops):
        return _real.TensorBackend(_Inherits)
'''

# Notebook 02: the given class derives from minitorch.FastOps (a `minitorch` of the student's),
# and tensor_reduce's sums are a matmul by ones, which the class inherits.
REDUCE_BY_INHERITED = '''_real = minitorch


class minitorch:
    TensorOps = _real.FastOps
    TensorBackend = _real.TensorBackend


def tensor_reduce(fn):
    def _reduce(out, out_shape, out_strides, a_storage, a_shape, a_strides, reduce_dim):
        n = a_shape[reduce_dim]
        rows = []
        index = [0] * len(out_shape)
        for i in range(len(out)):
            to_index(i, out_shape, index)
            row = []
            for s in range(n):
                index[reduce_dim] = s
                row.append(a_storage[index_to_position(index, a_strides)])
            rows.append(row)
        ones = _real.tensor([[1.0]] * n, backend=FastTensorBackend)
        sums = _real.tensor(rows, backend=FastTensorBackend) @ ones
        for i in range(len(out)):
            to_index(i, out_shape, index)
            o = index_to_position(index, out_strides)
            out[o] = fn(out[o], sums[i, 0])

    return _reduce
'''

# what check says of a graded op computed by ops its class inherits from minitorch.FastOps
INHERITED = "inherits from minitorch's fast ops: check grades your kernels"
REFUSED = "attempt of this session's cells to give the name check another value was refused"

CATALOGUE = {
    # -- Task 0.1 -------------------------------------------------------------------------------
    "id_no_return": Entry(
        M0, [replace(OPS, "    return x\n\n\ndef add(", "    x\n\n\ndef add(")],
        ["test_mul_id_add_neg"]),
    "eq_is_le": Entry(
        M0, [replace(OPS, "return 1.0 if x == y else 0.0", "return 1.0 if x <= y else 0.0")],
        ["test_lt_eq"]),
    "max_is_min": Entry(
        M0, [replace(OPS, "return x if x > y else y", "return x if x < y else y")], ["test_max"]),
    "is_close_no_abs": Entry(
        M0, [replace(OPS, "return abs(x - y) < 1e-2", "return x - y < 1e-2")],
        ["test_is_close"]),
    "sigmoid_overflows": Entry(
        M0, [replace(OPS, "    e = math.exp(x)\n    return e / (1.0 + e)",
                     "    return 1.0 / (1.0 + math.exp(-x))")], ["test_sigmoid"]),
    "relu_leaky": Entry(
        M0, [replace(OPS, "return x if x > 0.0 else 0.0", "return x if x > 0.0 else 0.01 * x")],
        ["test_relu"]),
    "exp_of_minus_x": Entry(
        M0, [replace(OPS, "return math.exp(x)", "return math.exp(-x)")], ["test_log_exp"]),
    "inv_negated": Entry(
        M0, [replace(OPS, "return 1.0 / x\n", "return -1.0 / x\n")], ["test_inv"]),
    "log_back_squares": Entry(
        M0, [replace(OPS, "return d / x\n", "return d / (x * x)\n")], ["test_log_back"]),
    "inv_back_sign": Entry(
        M0, [replace(OPS, "return -d / (x * x)", "return d / (x * x)")], ["test_inv_back"]),
    "relu_back_wrong_argument": Entry(
        M0, [replace(OPS, "return d if x > 0.0 else 0.0", "return d if d > 0.0 else 0.0")],
        ["test_relu_back"]),
    # -- Task 0.2: a sigmoid within 1e-6 of the right one, above 1 for large x ------------------
    "sigmoid_above_one": Entry(
        M0, [replace(OPS, "return 1.0 / (1.0 + math.exp(-x))",
                     "return 1.0 / (1.0 + math.exp(-x) - 1e-6)")], ["test_properties"]),
    # -- Task 0.3 -------------------------------------------------------------------------------
    "map_drops_last": Entry(
        M0, [replace(OPS, "return [fn(x) for x in ls]",
                     "return [fn(ls[i]) for i in range(len(ls) - 1)]")], ["test_map_negList"]),
    "zipWith_first_list_twice": Entry(
        M0, [replace(OPS, "for x, y in zip(ls1, ls2)", "for x, y in zip(ls1, ls1)")],
        ["test_zipWith_addLists"]),
    "prod_starts_at_zero": Entry(
        M0, [replace(OPS, "reduce(mul, 1.0)", "reduce(mul, 0.0)")], ["test_reduce_sum_prod"]),
    # -- a function others are built on costs their cells too ----------------------------------
    "mul_adds": Entry(
        M0, [replace(OPS, "return x * y\n", "return x + y\n")],
        ["test_mul_id_add_neg", "test_properties", "test_reduce_sum_prod"]),
    # -- Task 0.4 -------------------------------------------------------------------------------
    "train_not_below": Entry(
        M0, [replace(MODULE, TRAIN_RECURSES, "        self.training = True")], ["test_train"]),
    "eval_trains_children": Entry(
        M0, [replace(MODULE, "child.eval()", "child.train()")], ["test_eval"]),
    "named_parameters_no_prefix": Entry(
        M0, [replace(MODULE, 'found.append((name + "." + sub, p))', "found.append((sub, p))")],
        ["test_named_parameters"]),
    "parameters_own_only": Entry(
        M0, [replace(MODULE, "return [p for _, p in self.named_parameters()]",
                     'return list(self.__dict__["_parameters"].values())')],
        ["test_parameters"]),
    # -- cheats ---------------------------------------------------------------------------------
    "cheat_kernel_operators": Entry(M0, [source(OPS, KERNEL_OPERATORS)], ALL_OPS),
    "cheat_kernel_module": Entry(M0, [source(MODULE, KERNEL_MODULE)], MODULE_TESTS),
    "cheat_def_check_m0": Entry(
        M0, [stub(MODULE), insert_before("test_train", DEF_CHECK)], MODULE_TESTS, ["1 " + REFUSED],
        says=["RuntimeError: check is the grader's"]),
    # -- Task 2.1: a helper the kernels (or Permute) are built on costs their cells too --------
    "index_to_position_strides_reversed": Entry(
        M2, [replace(TDATA, "for i, s in zip(index, strides):",
                     "for i, s in zip(index, strides[::-1]):")],
        ["test_index_to_position"] + KERNELS),
    "to_index_first_dim_fastest": Entry(
        M2, [replace(TDATA, "for k in range(len(shape) - 1, -1, -1):",
                     "for k in range(len(shape)):")],
        ["test_to_index"], ["the last dim fastest"]),
    "tensordata_permute_keeps_strides": Entry(
        M2, [replace(TDATA, "tuple(self.strides[o] for o in order)", "self.strides")],
        ["test_tensordata_permute", "test_permute_forward", "test_permute_backward"]),
    # -- Task 2.2 -------------------------------------------------------------------------------
    "shape_broadcast_pads_right": Entry(
        M2, [replace(TDATA, "a = [1] * (n - len(shape1)) + list(shape1)",
                     "a = list(shape1) + [1] * (n - len(shape1))"),
             replace(TDATA, "b = [1] * (n - len(shape2)) + list(shape2)",
                     "b = list(shape2) + [1] * (n - len(shape2))")],
        ["test_shape_broadcast"], ["FAILED shape_broadcast"]),
    "broadcast_index_left_aligned": Entry(
        M2, [replace(TDATA, "out_index[k] = big_index[k + offset] if shape[k] > 1 else 0",
                     "out_index[k] = big_index[k] if shape[k] > 1 else 0")],
        ["test_broadcast_index", "test_tensor_map", "test_tensor_zip"]),
    # -- Task 2.3: the kernels ------------------------------------------------------------------
    "m2_map_in_at_out_index": Entry(
        M2, [replace(TOPS, "j = index_to_position(in_index, in_strides)",
                     "j = index_to_position(out_index, in_strides)")],
        ["test_tensor_map"], ["FAILED map"]),
    "m2_zip_reads_a_twice": Entry(
        M2, [replace(TOPS, "out[o] = fn(a_storage[j], b_storage[k])",
                     "out[o] = fn(a_storage[j], a_storage[j])")],
        ["test_tensor_zip"], ["FAILED zip"]),
    "m2_reduce_drops_last": Entry(
        M2, [replace(TOPS, "for s in range(a_shape[reduce_dim]):",
                     "for s in range(a_shape[reduce_dim] - 1):")],
        ["test_tensor_reduce"], ["FAILED reduce"]),
    # -- Task 2.3: the forwards -----------------------------------------------------------------
    "mul_forward_adds": Entry(
        M2, [replace(TFNS, "return a.f.mul_zip(a, b)", "return a.f.add_zip(a, b)")],
        ["test_mul_forward"], ["FAILED forward[Mul]"]),
    "sigmoid_forward_exp": Entry(
        M2, [replace(TFNS, "        return s\n", "        return t1.f.exp_map(t1)\n")],
        ["test_sigmoid_forward"], ["FAILED forward[Sigmoid]"]),
    "relu_forward_id": Entry(
        M2, [replace(TFNS, "return t1.f.relu_map(t1)", "return t1.f.id_map(t1)")],
        ["test_relu_forward"], ["FAILED forward[ReLU]"]),
    "log_forward_exp": Entry(
        M2, [replace(TFNS, "return t1.f.log_map(t1)", "return t1.f.exp_map(t1)")],
        ["test_log_forward"], ["FAILED forward[Log]"]),
    "exp_forward_neg": Entry(
        M2, [replace(TFNS, "        return e\n", "        return t1.f.neg_map(t1)\n")],
        ["test_exp_forward"], ["FAILED forward[Exp]"]),
    "lt_forward_swapped": Entry(
        M2, [replace(TFNS, "return a.f.lt_zip(a, b)", "return a.f.lt_zip(b, a)")],
        ["test_lt_forward"], ["FAILED forward[LT]"]),
    "eq_forward_is_close": Entry(
        M2, [replace(TFNS, "return a.f.eq_zip(a, b)", "return a.f.is_close_zip(a, b)")],
        ["test_eq_forward"], ["FAILED forward[EQ]"]),
    "is_close_forward_eq": Entry(
        M2, [replace(TFNS, "        return a.f.is_close_zip(a, b)\n",
                     "        return a.f.eq_zip(a, b)\n")],
        ["test_is_close_forward"], ["FAILED forward[IsClose]"]),
    "permute_forward_reversed": Entry(
        M2, [replace(TFNS, "return a._new(a._tensor.permute(*dims))",
                     "return a._new(a._tensor.permute(*reversed(dims)))")],
        ["test_permute_forward"], ["FAILED forward[Permute]"]),
    # -- Task 2.4 -------------------------------------------------------------------------------
    "mul_backward_swapped": Entry(
        M2, [replace(TFNS, "f.mul_zip(grad_output, b), f.mul_zip(grad_output, a)",
                     "f.mul_zip(grad_output, a), f.mul_zip(grad_output, b)")],
        ["test_mul_backward"], ["FAILED backward[Mul]"]),
    "sigmoid_backward_s_squared": Entry(
        M2, [replace(TFNS, "slope = f.add_zip(s, f.neg_map(f.mul_zip(s, s)))",
                     "slope = f.mul_zip(s, s)")],
        ["test_sigmoid_backward"], ["FAILED backward[Sigmoid]"]),
    "relu_backward_arguments_swapped": Entry(
        M2, [replace(TFNS, "relu_back_zip(t1, grad_output)", "relu_back_zip(grad_output, t1)")],
        ["test_relu_backward"], ["FAILED backward[ReLU]"]),
    "log_backward_inv_back": Entry(
        M2, [replace(TFNS, "log_back_zip(t1, grad_output)", "inv_back_zip(t1, grad_output)")],
        ["test_log_backward"], ["FAILED backward[Log]"]),
    "exp_backward_no_d": Entry(
        M2, [replace(TFNS, "return grad_output.f.mul_zip(grad_output, e)", "return e")],
        ["test_exp_backward"], ["FAILED backward[Exp]"]),
    "lt_backward_passes_d": Entry(
        M2, [comparison_backward("lt_zip", "        return grad_output, grad_output")],
        ["test_lt_backward"], ["FAILED backward[LT]"]),
    "eq_backward_passes_d": Entry(
        M2, [comparison_backward("eq_zip", "        return grad_output, grad_output")],
        ["test_eq_backward"], ["FAILED backward[EQ]"]),
    "permute_backward_not_inverted": Entry(
        M2, [replace(TFNS, "grad_output._tensor.permute(*back)",
                     "grad_output._tensor.permute(*dims)")],
        ["test_permute_backward"], ["FAILED backward[Permute]"]),
    # -- cheats ---------------------------------------------------------------------------------
    "cheat_kernel_indexing": Entry(M2, [stub(TDATA), append(TDATA, KERNEL_INDEXING)], M2_TESTS),
    "cheat_def_check_m2": Entry(
        M2, [stub(TOPS), insert_before("test_tensor_map", DEF_CHECK)], KERNELS, ["1 " + REFUSED],
        says=["RuntimeError: check is the grader's"]),
    # -- Task 3.1 -------------------------------------------------------------------------------
    "map_race": Entry(
        "02_parallel", [replace("tensor_map", MAP_LOOP, MAP_RACE)], ["test_tensor_map"],
        ["CompileError", "in_index is made once, before the prange loop", "(a race)"]),
    "map_in_at_out_index": Entry(
        "02_parallel", [replace("tensor_map", "j = index_to_position(in_index, in_strides)",
                                "j = index_to_position(out_index, in_strides)")],
        ["test_tensor_map"], ["FAILED map_broadcast[neg]"]),
    "zip_out_strides": Entry(
        "02_parallel", [replace("tensor_zip", "j = index_to_position(a_index, a_strides)",
                                "j = index_to_position(a_index, out_strides)")],
        ["test_tensor_zip"], ["tests of Task 3.1 (zip) failed", "(permuted)"]),
    "reduce_from_first": Entry(
        "02_parallel", [replace("tensor_reduce", REDUCE_FOLD, REDUCE_FROM_FIRST)],
        ["test_tensor_reduce"], ["FAILED reduce[sum(0)]"]),
    "reduce_from_zero": Entry(
        "02_parallel", [replace("tensor_reduce", REDUCE_FOLD, REDUCE_FROM_ZERO)],
        ["test_tensor_reduce"], ["FAILED reduce[max(0)]"]),
    "cheat_delegate_to_fast": Entry(
        "02_parallel", [source("tensor_map", DELEGATE)], ["test_tensor_map"],
        ["ran ops on a backend of the kernel's own"]),
    "cheat_hard_coded_seed": Entry(
        "02_parallel", [source("tensor_map", HARD_CODED),
                        insert_before("test_tensor_map", COPY_SEED)],
        ["test_tensor_map"], ["tests of Task 3.1 (map) failed"],
        says=["the hard-coded map passes seed 7"]),
    "cheat_swallow_errors": Entry(
        "02_parallel", [source("tensor_zip", SWALLOW),
                        insert_before("test_tensor_zip", SWALLOW_CHECK)],
        ["test_tensor_zip"], ["tests of Task 3.1 (zip) failed"]),
    "cheat_reduce_inherited": Entry(
        "02_parallel", [source("tensor_reduce", REDUCE_BY_INHERITED)], ["test_tensor_reduce"],
        [INHERITED]),
    # -- Task 3.2 -------------------------------------------------------------------------------
    "matmul_no_batch": Entry(
        "03_matmul", [
            replace("_tensor_matrix_multiply", "a_inner = n * a_batch_stride + i * a_strides[1]",
                    "a_inner = i * a_strides[1]"),
            replace("_tensor_matrix_multiply", "b_inner = n * b_batch_stride + j * b_strides[2]",
                    "b_inner = j * b_strides[2]")],
        ["test_matrix_multiply"], ["FAILED bmm"]),
    "matmul_b_transposed": Entry(
        "03_matmul", [
            replace("_tensor_matrix_multiply", "b_inner = n * b_batch_stride + j * b_strides[2]",
                    "b_inner = n * b_batch_stride + j * b_strides[1]"),
            replace("_tensor_matrix_multiply", "b_inner += b_strides[1]",
                    "b_inner += b_strides[2]")],
        ["test_matrix_multiply"], ["FAILED mm2"]),
    "cheat_lambda_check": Entry(
        "03_matmul", [source("_tensor_matrix_multiply", LAMBDA_CHECK)], ["test_matrix_multiply"],
        ["1 " + REFUSED], says=["RuntimeError: check is the grader's"]),
    "cheat_keyboard_interrupt": Entry(
        "03_matmul", [source("_tensor_matrix_multiply", INTERRUPT)], ["test_matrix_multiply"],
        ["KeyboardInterrupt"]),
    "cheat_skip_tag": Entry(
        "03_matmul", [stub("_tensor_matrix_multiply"),
                      tag("test_matrix_multiply", "skip-execution")],
        ["test_matrix_multiply"], ["NotImplementedError"]),
    "cheat_matmul_inherited": Entry(
        "03_matmul", [source("_tensor_matrix_multiply", MATMUL_BY_INHERITED)],
        ["test_matrix_multiply"], [INHERITED]),
    # -- Task 3.3 -------------------------------------------------------------------------------
    "sum_practice_past_out": Entry(
        "04_cuda_ops", [replace("_sum_practice",
                                "if pos == 0 and cuda.blockIdx.x * BLOCK_DIM < size:",
                                "if pos == 0:")],
        ["test_sum_practice"], ["the last block has no cell of its own"]),
    "cuda_map_unguarded": Entry(
        "04_cuda_ops", [replace("tensor_map", CUDA_MAP_GUARDED, CUDA_MAP_UNGUARDED)],
        ["test_cuda_map"], ["both wrote out[", "a thread past the data"]),
    "cuda_zip_reads_a_twice": Entry(
        "04_cuda_ops", [replace("tensor_map", "out[o] = fn(a_storage[j], b_storage[k])",
                                "out[o] = fn(a_storage[j], a_storage[j])")],
        ["test_cuda_zip"], ["FAILED zip[add2]"]),
    "cuda_reduce_drops_last": Entry(
        "04_cuda_ops", [replace("tensor_map", "if out_index[reduce_dim] < a_shape[reduce_dim]:",
                                "if out_index[reduce_dim] < a_shape[reduce_dim] - 1:")],
        ["test_cuda_reduce"], ["FAILED reduce[sum(0)]"]),
    "cuda_reduce_no_barrier": Entry(
        "04_cuda_ops", [replace("tensor_map", CUDA_REDUCE_LOAD,
                                CUDA_REDUCE_LOAD.split("\n")[0] + "\n")],
        ["test_cuda_reduce"], ["shared-memory race in _reduce()"]),
    "cheat_inherit_builtin": Entry(
        "04_cuda_ops", [source("tensor_map", INHERIT_BUILTIN)],
        ["test_cuda_map", "test_cuda_zip", "test_cuda_reduce"],
        ["is the kernel's own (_Builtin derives from minitorch's fast ops)"]),
    # -- Task 3.4 -------------------------------------------------------------------------------
    "tiled_matmul_no_barrier": Entry(
        "05_cuda_matmul", [replace("_mm_practice", TILE_END, TILE_END.split("\n")[0] + "\n")],
        ["test_cuda_matrix_multiply"], ["shared-memory race in _tensor_matrix_multiply()"]),
    "mm_practice_wrong_index": Entry(
        "05_cuda_matmul", [replace("_mm_practice", "acc += a_shared[i, k] * b_shared[k, j]",
                                   "acc += a_shared[i, k] * b_shared[j, k]")],
        ["test_mm_practice"], ["FAILED mm_practice (2 x 2)"]),
    "cheat_def_check": Entry(
        "05_cuda_matmul", [source("_mm_practice", DEF_CHECK)],
        ["test_mm_practice", "test_cuda_matrix_multiply"], ["1 " + REFUSED],
        says=["RuntimeError: check is the grader's"]),
    # the reset leaves no kernel for the practice part and no backend for the other
    "cheat_reset": Entry(
        "05_cuda_matmul", [stub("_mm_practice"), insert_before("test_mm_practice", RESET)],
        ["test_mm_practice", "test_cuda_matrix_multiply"],
        says=["RuntimeError: check is the grader's", "no kernel jit_mm_practice in the session",
              "tests your backend, and there is none yet"]),
    "cheat_test_deleted": Entry(
        "05_cuda_matmul", [stub("_mm_practice"), delete("test_mm_practice")],
        ["test_mm_practice", "test_cuda_matrix_multiply"]),
    "cheat_cuda_matmul_inherited": Entry(
        "05_cuda_matmul", [append("_mm_practice", CUDA_MATMUL_BY_INHERITED)],
        ["test_cuda_matrix_multiply"], [INHERITED]),
}


# ---- Module 1's mistakes and cheats --------------------------------------------------------------
# The notebook m1_autodiff (the assignment module1): its solutions are three file cells,
# autodiff.py, scalar_functions.py and scalar.py, graded by a cell per part of check. A bug in a
# function backpropagate calls (chain_rule, topological_sort) costs its cell too.

M1 = "m1_autodiff"
AUTODIFF, FUNCTIONS, SCALAR = "autodiff_py", "scalar_functions_py", "scalar_py"
M1_FUNCTIONS = "mul inv neg sigmoid relu exp lt eq".split()
M1_FORWARD = ["test_forward_" + f for f in M1_FUNCTIONS]
M1_BACKWARD = ["test_backward_" + f for f in M1_FUNCTIONS]
M1_ALL = (["test_central_difference"] + M1_FORWARD
          + ["test_chain_rule", "test_topological_sort", "test_backpropagate"] + M1_BACKWARD)
# LT's and EQ's backward are the same two lines: each named by what follows or precedes it
FLAT_BACKWARD = ("    def backward(ctx: Context, d_output: float) -> Tuple[float, float]:\n"
                 "        return 0.0, 0.0")
LT_BACKWARD = FLAT_BACKWARD + "\n\n\nclass EQ"
EQ_BACKWARD = "return operators.eq(a, b)\n\n    @staticmethod\n" + FLAT_BACKWARD
CENTRAL = "return (f(*up) - f(*down)) / (2 * epsilon)"

# the kernel's ScalarFunctions of Task 1.2, kept before the student's file replaces their module
# (which empties it), and put into the student's module before scalar.py imports them
KEEP_KERNEL_FUNCTIONS = (
    "import minitorch\n\n"
    "kernel_functions = {name: getattr(minitorch.scalar_functions, name)\n"
    "                    for name in %r}\n" % "Mul Inv Neg Sigmoid ReLU Exp LT EQ".split())
KERNEL_FUNCTIONS = ("for name, value in kernel_functions.items():\n"
                    "    setattr(minitorch.scalar_functions, name, value)\n")


def kernel_central_difference(cells):
    """autodiff.py without its central_difference: the kernel's, imported as the kernel's own
    autodiff.py does"""
    cell = find(cells, AUTODIFF)
    start = cell.source.index("def central_difference")
    end = cell.source.index("__all__")
    cell.source = (cell.source[:start] + "from minitorch import central_difference\n\n\n"
                   + cell.source[end:])


CATALOGUE.update({
    # -- Task 1.1 -------------------------------------------------------------------------------
    "m1_central_difference_over_epsilon": Entry(
        M1, [replace(AUTODIFF, "/ (2 * epsilon)", "/ epsilon")], ["test_central_difference"],
        ["FAILED central_difference: central_difference(f, "]),
    # -- Task 1.2 -------------------------------------------------------------------------------
    "m1_mul_forward_adds": Entry(
        M1, [replace(FUNCTIONS, "return operators.mul(a, b)", "return operators.add(a, b)")],
        ["test_forward_mul"], ["FAILED forward[Mul]: Mul.apply(a, b)"]),
    "m1_inv_forward_no_reciprocal": Entry(
        M1, [replace(FUNCTIONS, "return operators.inv(a)", "return a")], ["test_forward_inv"],
        ["FAILED forward[Inv]: Inv.apply(a)"]),
    "m1_neg_operator_not_written": Entry(
        M1, [replace(SCALAR, "return Neg.apply(self)\n", "raise NotImplementedError()\n")],
        ["test_forward_neg"], ["FAILED forward[Neg]: -a with", "raised NotImplementedError"]),
    "m1_sigmoid_forward_sign": Entry(
        M1, [replace(FUNCTIONS, "s = operators.sigmoid(a)",
                     "s = 1.0 / (1.0 + operators.exp(a))")],
        ["test_forward_sigmoid"], ["FAILED forward[Sigmoid]: Sigmoid.apply(a)"]),
    "m1_relu_forward_int_zero": Entry(
        M1, [replace(FUNCTIONS, "return operators.relu(a)", "return max(a, 0)")],
        ["test_forward_relu"],
        ["FAILED forward[ReLU]", "Expected return type float got <class 'int'>"]),
    "m1_exp_forward_returns_input": Entry(
        M1, [replace(FUNCTIONS, "        return e\n", "        return a\n")],
        ["test_forward_exp"], ["FAILED forward[Exp]: Exp.apply(a)"]),
    "m1_lt_reversed": Entry(
        M1, [replace(FUNCTIONS, "return operators.lt(a, b)", "return operators.lt(b, a)")],
        ["test_forward_lt"], ["FAILED forward[LT]: LT.apply(a, b)"]),
    "m1_eq_is_le": Entry(
        M1, [replace(FUNCTIONS, "return operators.eq(a, b)", "return 1.0 if a <= b else 0.0")],
        ["test_forward_eq"], ["FAILED forward[EQ]: EQ.apply(a, b)"]),
    # -- Task 1.3 -------------------------------------------------------------------------------
    "m1_chain_rule_drops_d_output": Entry(
        M1, [replace(SCALAR, "_backward(h.ctx, d_output)", "_backward(h.ctx, 1.0)")],
        ["test_chain_rule", "test_backpropagate"],
        says=["FAILED chain_rule: f(x, y) = x * y + x at Scalars x = 5.0, y = 10.0",
              "FAILED backpropagate: backpropagate(out, 5.0) for out = F1(0, v)"]),
    # -- Task 1.4 -------------------------------------------------------------------------------
    "m1_topological_sort_not_reversed": Entry(
        M1, [replace(AUTODIFF, "    post.reverse()\n", "")],
        ["test_topological_sort", "test_backpropagate"],
        says=["topological_sort(F1(0, v)) does not start with the output",
              "FAILED backpropagate: backpropagate(out, 5.0) for out = F1(0, v)"]),
    "m1_backpropagate_overwrites": Entry(
        M1, [replace(AUTODIFF, "pending[parent.unique_id] = pending[parent.unique_id] + d_parent",
                     "pending[parent.unique_id] = d_parent")],
        ["test_backpropagate"], ["FAILED backpropagate", "(MiniTorch's test_backprop3)"]),
    "m1_mul_backward_swapped": Entry(
        M1, [replace(FUNCTIONS, "return operators.mul(b, d_output), operators.mul(a, d_output)",
                     "return operators.mul(a, d_output), operators.mul(b, d_output)")],
        ["test_backward_mul"], ["FAILED backward[Mul]: Mul.backward(ctx, "]),
    "m1_inv_backward_sign": Entry(
        M1, [replace(FUNCTIONS, "return operators.inv_back(a, d_output)",
                     "return d_output / (a * a)")],
        ["test_backward_inv"], ["FAILED backward[Inv]: Inv.backward(ctx, "]),
    "m1_neg_backward_sign": Entry(
        M1, [replace(FUNCTIONS, "return operators.neg(d_output)", "return d_output")],
        ["test_backward_neg"], ["FAILED backward[Neg]: Neg.backward(ctx, "]),
    "m1_sigmoid_backward_of_input": Entry(
        M1, [replace(FUNCTIONS, "ctx.save_for_backward(s)", "ctx.save_for_backward(a)")],
        ["test_backward_sigmoid"], ["FAILED backward[Sigmoid]: Sigmoid.backward(ctx, "]),
    "m1_relu_backward_passes_d": Entry(
        M1, [replace(FUNCTIONS, "return operators.relu_back(a, d_output)", "return d_output")],
        ["test_backward_relu"], ["FAILED backward[ReLU]: ReLU.backward(ctx, "]),
    "m1_exp_backward_without_d": Entry(
        M1, [replace(FUNCTIONS, "return operators.mul(e, d_output)", "return e")],
        ["test_backward_exp"], ["FAILED backward[Exp]: Exp.backward(ctx, "]),
    "m1_lt_backward_passes_d": Entry(
        M1, [replace(FUNCTIONS, LT_BACKWARD,
                     LT_BACKWARD.replace("0.0, 0.0", "d_output, d_output"))],
        ["test_backward_lt"], ["FAILED backward[LT]: LT.backward(ctx, "]),
    "m1_eq_backward_one_value": Entry(
        M1, [replace(FUNCTIONS, EQ_BACKWARD, EQ_BACKWARD.replace("0.0, 0.0", "0.0"))],
        ["test_backward_eq"], ["gave 1 derivative, expected 2"]),
    # -- cheats ---------------------------------------------------------------------------------
    "m1_cheat_kernel_functions": Entry(
        M1, [insert_before(FUNCTIONS, KEEP_KERNEL_FUNCTIONS), stub(FUNCTIONS),
             insert_before(SCALAR, KERNEL_FUNCTIONS)], M1_FORWARD + M1_BACKWARD,
        ["of the kernel's scalar_functions.py: write your scalar_functions.py"]),
    "m1_cheat_kernel_central_difference": Entry(
        M1, [kernel_central_difference], ["test_central_difference"],
        ["the central_difference of your autodiff.py is (or derives from) the kernel's"]),
    # %reset forgets the file cells run before it too: every check after it finds no file of the
    # student's (the kernel's own are refused)
    "m1_cheat_reset": Entry(
        M1, [stub(AUTODIFF), insert_before("test_central_difference", RESET)], M1_ALL,
        ["and no cell has written it"], says=["RuntimeError: check is the grader's"]),
    # -- mistakes only a case of check's own shows (a wide epsilon, a one-input function) -------
    # a one-sided difference is within tolerance at the default epsilon: check also passes a
    # wide one of its own
    "m1_central_difference_one_sided": Entry(
        M1, [replace(AUTODIFF, CENTRAL, "return (f(*up) - f(*vals)) / epsilon")],
        ["test_central_difference"], ["epsilon=0.5"]),
    # backward for _backward: a one-input function's float is not made a tuple; check's
    # chain_rule test has a function of one input
    "m1_chain_rule_unwrapped": Entry(
        M1, [replace(SCALAR, "_backward(h.ctx, d_output)", "backward(h.ctx, d_output)")],
        ["test_chain_rule"], ["raised TypeError"]),
})

# Tasks 1.5 and 2.5: the network's classes (in Module 2's cell after RParam, which names it),
# graded by check on Scalars and tensors of its own
CATALOGUE.update({
    "m1_linear_forward_on_floats": Entry(
        M1, [replace("Network", "out[j] = out[j] + x * self.weights[i][j].value",
                     "out[j] = out[j] + x * self.weights[i][j].value.data")],
        ["test_linear", "test_training"], says=["has no derivative after backward()"]),
    "m1_network_layer2_to_one": Entry(
        M1, [replace("Network", "self.layer2 = Linear(hidden_layers, hidden_layers)",
                     "self.layer2 = Linear(hidden_layers, 1)")],
        ["test_network", "test_training"], ["should be Linear(2, 2)"]),
    "m2_linear_forward_no_bias": Entry(
        M2, [replace("RParam", " + self.bias.value.view(self.out_size)", "")],
        ["test_linear", "test_network", "test_training"], says=["FAILED Linear.forward"]),
    "m2_network_without_relu": Entry(
        M2, [replace("RParam", "h = self.layer2.forward(h).relu()", "h = self.layer2.forward(h)")],
        ["test_network", "test_training"], says=["FAILED Network: Network(1).forward(x)"]),
})



# ---- Module 4's mistakes and cheats --------------------------------------------------------------

M4 = "m4_networks"
FCONV, NN = "fast_conv_py", "nn_py"  # the grade ids of the fast_conv.py and nn.py cells

CATALOGUE.update({
    # -- Tasks 4.1 and 4.2: the kernels, in the forward and in backward's two calls ----------------
    "conv1d_drops_last_column": Entry(
        M4, [replace(FCONV, "if w >= 0 and w < width:", "if w >= 0 and w < width - 1:")],
        ["test_conv1d"], ["FAILED forward"]),
    "conv1d_ignores_reverse": Entry(
        M4, [replace(FCONV, "                if reverse:\n                    w = x - k",
                     "                if False:\n                    w = x - k")],
        ["test_conv1d"], ["FAILED backward"]),
    "conv1d_input_as_contiguous": Entry(
        M4, [replace(FCONV, "input[b * s1[0] + ic * s1[1] + w * s1[2]]",
                     "input[(b * in_channels + ic) * width + w]")],
        ["test_conv1d"], ["FAILED backward", "a permuted layout"]),
    "conv2d_weight_as_contiguous": Entry(
        M4, [replace(FCONV, "* weight[oc * s20 + ic * s21 + dy * s22 + dx * s23]",
                     "* weight[((oc * in_channels + ic) * kh + dy) * kw + dx]")],
        ["test_conv2d"], ["FAILED backward"]),
    "conv2d_reverse_rows_forward": Entry(
        M4, [replace(FCONV, "                        yy = y - dy", "                        yy = y + dy")],
        ["test_conv2d"], ["FAILED backward"]),
    "conv2d_reads_past_the_row": Entry(
        M4, [replace(FCONV, "if yy >= 0 and yy < height and xx >= 0 and xx < width:",
                     "if yy >= 0 and yy < height and xx >= 0 and xx <= width:")],
        ["test_conv2d"], ["FAILED forward"]),
    # -- Task 4.3: tile and avgpool2d (both poolings pool tile's windows) -------------------------
    "tile_without_permute": Entry(
        M4, [replace(NN, "    x = x.permute(0, 1, 3, 2, 4)\n    return x, new_height, new_width",
                     "    return x, new_height, new_width")],
        ["test_tile", "test_avgpool2d", "test_maxpool2d"], ["failed (the first: "]),
    "avgpool2d_sums": Entry(
        M4, [replace(NN, "return t.mean(4).view(batch, channel, h, w)",
                     "return t.sum(4).view(batch, channel, h, w)")],
        ["test_avgpool2d"], ["FAILED avgpool2d"]),
    # -- Task 4.4: each function of nn.py (maxpool2d and logsoftmax take max) ---------------------
    "argmax_gives_the_max": Entry(
        M4, [replace(NN, "    return out == input\n", "    return out * (out == input)\n")],
        ["test_argmax"], ["FAILED argmax"]),
    "max_backward_everywhere": Entry(
        M4, [replace(NN, "return (out == input) * grad_output, 0.0", "return grad_output, 0.0")],
        ["test_max", "test_maxpool2d"], ["FAILED max"]),
    "softmax_partition_off": Entry(
        M4, [replace(NN, "    return e / partition", "    return e / (partition + 1.0)")],
        ["test_softmax"], ["FAILED softmax"]),
    "logsoftmax_no_gradient_through_lse": Entry(
        M4, [replace(NN, "    lse = (e - mx).exp().sum(dim=dim).log() + mx",
                     "    lse = (e - mx).exp().sum(dim=dim).log().detach() + mx")],
        ["test_logsoftmax"], ["FAILED logsoftmax"]),
    "maxpool2d_averages": Entry(
        M4, [replace(NN, "return max(t, 4).view(batch, channel, h, w)",
                     "return t.mean(4).view(batch, channel, h, w)")],
        ["test_maxpool2d"], ["FAILED maxpool2d"]),
    "dropout_keeps_the_rate": Entry(
        M4, [replace(NN, "    drop = rate < r", "    drop = r < rate")],
        ["test_dropout"], ["FAILED dropout"]),
    # the kernel's tensors' max (MiniTorch's Tensor has none) in place of Max: refused, and
    # what is built on max loses with it
    "cheat_tensor_max": Entry(
        M4, [replace(NN, "    return Max.apply(input, input._ensure_tensor(dim))",
                     "    return input.max(dim)")],
        ["test_max", "test_logsoftmax", "test_maxpool2d"],
        ["called the kernel's max(): write it yourself"]),
})


def students():
    """{student: [entry, ...]}: the k-th student hands in the k-th entry of each notebook."""
    out = {}
    for nb in NOTEBOOKS:
        for k, name in enumerate(n for n, e in CATALOGUE.items() if e.notebook == nb):
            out.setdefault(f"student{k + 1:02d}", []).append(name)
    return out


STUDENTS = students()
STUDENT_OF = {name: s for s, names in STUDENTS.items() for name in names}


# ---- the class, released and graded once -------------------------------------------------------

def read(path):
    return nbformat.read(path, as_version=4)


def solution_sources(name):
    """{grade_id: the instructor's solution} of each solution cell, as a student would write it
    (the region's markers gone)."""
    out = {}
    for cell in read(os.path.join(ROOT, "notebooks", name + ".ipynb")).cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            out[meta["grade_id"]] = "\n".join(
                line for line in cell.source.split("\n")
                if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))
    return out


def handed_in(course, entry):
    """The released notebook, its solutions filled in and cut to the task's cells, edited."""
    nb = read(os.path.join(course, "release", assignment_of(entry.notebook),
                           entry.notebook + ".ipynb"))
    solutions = solution_sources(entry.notebook)
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            cell.metadata["released"] = cell.source  # for stub(); dropped below
            cell.source = solutions[meta["grade_id"]]
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    first = next(i for i in code if nb.cells[i].metadata["nbgrader"]["solution"])
    # Module 0's first solution is its first code cell: the whole notebook is the task
    start = max((i for i in code if i < first and "import minitorch" in nb.cells[i].source),
                default=code[0])
    end = max(i for i in code if nb.cells[i].metadata["nbgrader"].get("grade"))
    cells = [c for i, c in enumerate(nb.cells) if c.cell_type != "code" or start <= i <= end]
    if entry.notebook in CUDA:
        cells.insert(cells.index(nb.cells[first]), nbformat.v4.new_code_cell("%cuda simulate"))
    for edit in entry.edits:
        edit(cells)
    for cell in cells:
        cell.metadata.pop("released", None)
    nb.cells = cells
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class released and graded: the course directory."""
    course = str(tmp_path_factory.mktemp("course"))
    tool(course, "release", *(os.path.join(ROOT, "notebooks", n + ".ipynb") for n in NOTEBOOKS))
    submitted = tmp_path_factory.mktemp("submitted")
    for student, names in STUDENTS.items():
        (submitted / student).mkdir()
        for name in names:
            entry = CATALOGUE[name]
            nbformat.write(handed_in(course, entry),
                           str(submitted / student / (entry.notebook + ".ipynb")))
    print(tool(course, "autograde", str(submitted), "--together").split("\nsummary:")[-1])
    return course


def autograded(course, student, notebook):
    path = os.path.join(course, "autograded", student, assignment_of(notebook),
                        notebook + ".ipynb")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def output_text(cell):
    """What a cell printed and raised, as one text."""
    text = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream":
            text.append("".join(o["text"]))
        elif o["output_type"] == "error":
            text.append(f"{o['ename']}: {o['evalue']}")
    return "\n".join(text)


def graded_cell_text(course, student, notebook, grade_id):
    cells = autograded(course, student, notebook)["cells"]
    return output_text(next(c for c in cells
                            if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id))


def params():
    return [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=e.defect))
            if e.defect else n for n, e in CATALOGUE.items()]


@pytest.mark.parametrize("name", params())
def test_an_entry_loses_exactly_its_points_and_says_why(graded, name):
    entry, student = CATALOGUE[name], STUDENT_OF[name]
    got = {gid: score for (nb, gid), score in
           grades(graded, student, assignment_of(entry.notebook)).items()
           if nb == entry.notebook}
    assert set(entry.lost) <= set(got), got
    assert got == {gid: (0 if gid in entry.lost else top, top) for gid, (_, top) in got.items()}
    for gid in entry.lost:
        text = graded_cell_text(graded, student, entry.notebook, gid) if entry.why else ""
        for why in entry.why:
            assert why in text, (gid, why, text[-3000:])
    text = "\n".join(output_text(c)
                     for c in autograded(graded, student, entry.notebook)["cells"])
    for said in entry.says:
        assert said in text, (said, text[-3000:])


def test_a_notebook_not_handed_in_scores_zero(graded):
    """In each assignment a student handed notebooks of, the others score zero."""
    for student, names in STUDENTS.items():
        mine = {CATALOGUE[n].notebook for n in names}
        for assignment in sorted({assignment_of(nb) for nb in mine}):
            got = grades(graded, student, assignment)
            assert {nb for nb, _ in got} == {n for n in NOTEBOOKS
                                             if assignment_of(n) == assignment}
            assert all(score == 0 for (nb, _), (score, _) in got.items() if nb not in mine), got


def test_the_feedback_says_why(graded):
    """The feedback of each lost cell shows the first of its reasons (the check's report or the
    error), as the autograded notebook has it."""
    for name, entry in CATALOGUE.items():
        if not entry.why or entry.defect:
            continue
        path = os.path.join(graded, "feedback", STUDENT_OF[name], assignment_of(entry.notebook),
                            entry.notebook + ".html")
        with open(path, encoding="utf-8") as f:
            page = html.unescape(re.sub(r"<[^>]*>", "", f.read()))
        assert entry.why[0] in page, (name, entry.why[0])


