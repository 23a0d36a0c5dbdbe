"""The CUDA simulator against the interpreter, on random kernels.

Each kernel is a block-shared computation as Task 3.3's kernels are: every thread computes a
value from its place in the launch (threadIdx, blockIdx, the global index) and a Storage read
anywhere, with index math (// and % on negative numbers too), branches, a bounded loop and calls
of min, max and abs; it stores the value into the block's shared array, all threads meet at
cuda.syncthreads(), and then each thread combines its neighbours' shared values into its own
element of `out`. The same text is written a second time as the interpreter's plain loops over
blocks and threads, the two phases one after the other, which is what CUDA's barrier means.
Both run in one script through the kernel (MT_CUDA_SIMULATE=1: the simulator even on a machine
with a GPU), on equal inputs, and `out` must be equal bit for bit. Shapes of launch vary: 1 to
4 blocks of 32 or 64 threads, an `out` shorter than the grid (threads past it write nothing).
"""

import os
import random

from helpers import run_script

N_KERNELS = 60


class Gen:
    def __init__(self, rng, phase2):
        self.r = rng
        self.phase2 = phase2

    def iexpr(self, d=0):
        r = self.r
        c = r.random()
        if d > 2 or c < 0.35:
            return r.choice(["tid", "bid", "g", "n", "BS", str(r.randint(-9, 9))])
        if c < 0.5:
            return f"int(x[({self.iexpr(d + 1)}) % 64] * 4)"
        if c < 0.58:
            return f"{r.choice(['min', 'max'])}({self.iexpr(d + 1)}, {self.iexpr(d + 1)})"
        if c < 0.62:
            return f"abs({self.iexpr(d + 1)})"
        op = r.choice(["+", "-", "*", "//", "%", "+", "-"])
        rhs = str(r.choice([2, 3, 5, -3, 7])) if op in ("//", "%") else self.iexpr(d + 1)
        return f"({self.iexpr(d + 1)} {op} {rhs})"

    def fexpr(self, d=0):
        r = self.r
        c = r.random()
        if d > 2 or c < 0.3:
            leaves = [f"x[({self.iexpr(d + 1)}) % 64]", str(r.choice([0.5, -1.25, 2.0, 0.1]))]
            if self.phase2:
                leaves.append(f"sh[({self.iexpr(d + 1)}) % BS]")
            return r.choice(leaves)
        if c < 0.4:
            return f"({self.fexpr(d + 1)} if {self.iexpr(d + 1)} > {self.iexpr(d + 1)} else {self.fexpr(d + 1)})"
        if c < 0.45:
            return f"{r.choice(['min', 'max'])}({self.fexpr(d + 1)}, {self.fexpr(d + 1)})"
        if c < 0.5:
            return f"float({self.iexpr(d + 1)})"
        op = r.choice(["+", "-", "*", "+"])
        return f"({self.fexpr(d + 1)} {op} {self.fexpr(d + 1)})"

    def body(self, ind):
        """Lines computing v (a float) for one thread."""
        r = self.r
        p = " " * ind
        lines = [f"{p}v = {self.fexpr()}"]
        if r.random() < 0.5:
            lines += [f"{p}for j in range(({self.iexpr()}) % 4):",
                      f"{p}    v = v * 0.5 + {self.fexpr()}"]
        if r.random() < 0.5:
            lines += [f"{p}if {self.iexpr()} > {self.iexpr()}:", f"{p}    v = v - {self.fexpr()}"]
        return lines


def _kernel(rng, k):
    one = Gen(rng, False).body(8)
    two = Gen(rng, True).body(8)
    kernel = ([f"@cuda.jit", f"def k{k}(out, x, n):",
               f"    BS = BSIZE",
               f"    sh = cuda.shared.array(BSIZE, numba.float64)",
               f"    tid = cuda.threadIdx.x",
               f"    bid = cuda.blockIdx.x",
               f"    g = bid * cuda.blockDim.x + tid",
               f"    if True:"] + one +
              [f"    sh[tid] = v", f"    cuda.syncthreads()", f"    if True:"] + two +
              [f"    if g < n:", f"        out[g] = v", ""])
    ref = ([f"def r{k}(out, x, n, blocks):",
            f"    BS = BSIZE",
            f"    for bid in range(blocks):",
            f"        sh = [0.0] * BS",
            f"        for tid in range(BS):",
            f"            g = bid * BS + tid"] + [" " * 4 + ln for ln in one] +
           [f"            sh[tid] = v",
            f"        for tid in range(BS):",
            f"            g = bid * BS + tid"] + [" " * 4 + ln for ln in two] +
           [f"            if g < n:", f"                out[g] = v", ""])
    return kernel, ref


def _script(seed, n):
    rng = random.Random(seed)
    parts = ["import numba", "from numba import cuda", "import minitorch", "",
             "def both(kern, ref, vals, blocks, bs, n):",
             "    x = minitorch.tensor(vals)",
             "    a = minitorch.zeros((blocks * bs,))",
             "    b = minitorch.zeros((blocks * bs,))",
             "    kern[blocks, bs](a._tensor._storage, x._tensor._storage, n)",
             "    ref(b._tensor._storage, x._tensor._storage, n, blocks)",
             "    return a.tolist() == b.tolist()", ""]
    checks = []
    for k in range(n):
        bs = rng.choice([32, 64])
        kernel, ref = _kernel(rng, k)
        parts += [ln.replace("BSIZE", str(bs)) for ln in kernel + ref]
        vals = [rng.choice([0.0, 0.25, -1.5, 2.0, 3.75, -0.125, 1.0]) for _ in range(64)]
        blocks = rng.randint(1, 4)
        nn = rng.randint(1, blocks * bs)
        checks.append(f"print({k}, both(k{k}, r{k}, {vals}, {blocks}, {bs}, {nn}))")
    return "\n".join(parts + checks) + "\n"


def test_simulator_against_interpreter():
    os.environ["MT_CUDA_SIMULATE"] = "1"
    text = _script(2026, N_KERNELS)
    out = run_script(text, 600)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.strip().splitlines()
    assert len(lines) == N_KERNELS, out.stdout[-2000:]
    bad = [ln for ln in lines if not ln.endswith("True")]
    assert not bad, f"kernels differing from the interpreter: {bad[:5]}\n" + text[:4000]
