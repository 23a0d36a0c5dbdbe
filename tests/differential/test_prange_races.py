"""njit's race analysis of prange loops, on random kernels in the course's style.

Each program is a Task 3.1 kernel over what the course's kernels take (out, out_shape,
out_strides, a, a_shape, a_strides; and an int list idx and an int n): a prange loop over out's
elements that fills index buffers with to_index and broadcast_index, turns them into positions
with index_to_position (MiniTorch's helpers, or the student's own, njit'ed; or the sum written
out as a loop), reads a, and stores into out, directly, through another name for it or through
a helper function that writes its array argument; some add into a reduction (acc += ...). The
generator builds each program either race-free or with races a student writes, and knows which
arrays they touch:

- an index buffer made before the loop (np.zeros or [0] * MAX_DIMS), or the argument idx, filled
  by to_index or broadcast_index (MiniTorch's or the student's) in the loop, or written through
  another name for it given before or in the loop;
- a store into out, directly at a position that does not follow from the loop's variable (a
  constant, n, an inner loop's variable, an element read from idx) or repeats (i % k, i // k),
  or by a helper, whatever it is given (the loop cannot tell which elements a function writes);
- a store into idx or into an array made before the loop; a helper writing idx;
- a reduction variable read inside the loop, a variable assigned before the loop and in it.

Race-free programs use buffers made inside the loop (and other names for them), store at the
position to_index gives or at i, read arrays made and filled before the loop, and reduce.

Every racy program must be refused at its first call with a CompileError naming one of its racy
arrays (or variables). Every race-free one must compile (parallel_diagnostics says so) and give
the interpreter's result (the plain function, not jitted, with plain Python helpers) bit for bit
(the return value, out and idx after the call): at its first call (tcc's build, where the kernel
makes one), then with gcc's build at %threads 1, and RUNS times each at %threads 2 and 8. The
values are exact in float32 and float64 (quarters, small sums), so a reduction's order does not
change them. The kernel runs with the CPUs it may use reported as 8 (a preloaded
sched_getaffinity, tests/differential/cpus8.c), so that %threads 8 is 8 threads on any machine
(on 2 cores, threads taking turns: preempted in the middle of their chunks).

Races the analysis leaves to run time are not generated: an index read from data or one whose
values it cannot follow (i - i, min(i, 3)), or a read of an element other iterations may write,
whose accesses are recorded and checked as they run (tests/scripts/njit.mt, and the njit fuzzer's
prange loops); nor are two arguments that are one Storage.

RACE_PROGRAMS (default 160, in scripts of up to 100, each its own seed), RACE_RUNS (default 6)
and RACE_SEED (the first seed, default 11) make a longer run, for instance
RACE_PROGRAMS=2000 RACE_RUNS=20 RACE_SEED=100 tests/differential/run.sh build -k prange_races
"""

import os
import random
import re
import subprocess
import tempfile

import pytest

from helpers import run_script

N_PROGRAMS = int(os.environ.get("RACE_PROGRAMS", "160"))
RUNS = int(os.environ.get("RACE_RUNS", "6"))
SEED = int(os.environ.get("RACE_SEED", "11"))
PARTS = max(2, (N_PROGRAMS + 99) // 100)

# The course's helpers as MiniTorch writes them (Task 2.1): the interpreter's reference runs
# these, plain; the compiled twins call them njit'ed (my_*) or MiniTorch's own.
HELPERS = """
MAX_DIMS = 32


def py_index_to_position(index, strides):
    position = 0
    for d in range(len(strides)):
        position += index[d] * strides[d]
    return position


def py_to_index(ordinal, shape, out_index):
    cur = ordinal + 0
    for d in range(len(shape) - 1, -1, -1):
        sh = shape[d]
        out_index[d] = int(cur % sh)
        cur = cur // sh


def py_broadcast_index(big_index, big_shape, shape, out_index):
    for d in range(len(shape)):
        if shape[d] > 1:
            out_index[d] = big_index[d + (len(big_shape) - len(shape))]
        else:
            out_index[d] = 0
    return None


my_index_to_position = njit(inline="always")(py_index_to_position)
my_to_index = njit(inline="always")(py_to_index)
my_broadcast_index = njit(inline="always")(py_broadcast_index)


def put(s, k, v):
    s[k] = v


def bump(arr, k):
    arr[k] = arr[k] + 1


def run(fn, size, out_shape, out_strides, avals, a_shape, a_strides, idx0, n):
    out = minitorch.zeros((size,))._tensor._storage
    a = minitorch.tensor(avals)._tensor._storage
    idx = list(idx0)
    try:
        r = fn(out, out_shape, out_strides, a, a_shape, a_strides, idx, n)
    except Exception as e:
        r = type(e).__name__ + ": " + str(e)
    return [r, [v for v in out], idx]


def same(got, want):
    return "same" if repr(got) == repr(want) else "DIFFERENT " + repr(got) + " want " + repr(want)
"""


def _contiguous(shape):
    strides, s = [], 1
    for d in reversed(shape):
        strides.append(s)
        s *= d
    return tuple(reversed(strides))


# The races a program may hold, each a mistake of the course's kind; a racy program holds one
# (sometimes two), so that each of the analysis's rules meets programs only it can refuse.
RACES = ["oi before", "oi idx", "oi alias before", "oi alias in", "ai before", "ai idx",
         "store", "store repeats", "store inner", "put", "idx store", "idx bump", "tab store",
         "acc read", "carried"]


class Gen:
    """One random kernel: its text (a {H} where the helpers' prefix goes, py_ for the
    interpreter's twin) and the names of the arrays (or variables) it writes racily, which a
    refusal must give."""

    def __init__(self, rng, own_helpers, races):
        self.r = rng
        self.own_helpers = own_helpers  # the student's helpers (my_*), else MiniTorch's
        self.races = races
        self.racy = set()
        # what the refusal of a program with one race of these kinds says of its cause
        self.says = None
        if len(races) == 1 and races & {"oi before", "ai before", "tab store"}:
            self.says = "made once, before the prange loop"
        self.pre = []      # lines before the prange loop
        self.body = []     # lines of its body
        self.post = []     # lines after it

    def buffer(self):
        return "np.zeros(MAX_DIMS, np.int32)" if self.r.random() < 0.5 else "[0] * MAX_DIMS"

    def index_buffer(self, name):
        """Where the index buffer `name` lives: made in the loop (each iteration's own), unless
        a race shares it (made before the loop, the argument idx, another name for one made
        before). Returns the name the loop passes to the helpers."""
        r = self.r
        if f"{name} idx" in self.races:
            self.racy.add("idx")
            return "idx"
        if f"{name} before" in self.races:
            self.pre.append(f"{name} = {self.buffer()}")
            self.racy.add(name)
            return name
        for where, lines in [("before", self.pre), ("in", self.body)]:
            if f"{name} alias {where}" in self.races:
                self.pre.append(f"{name} = {self.buffer()}")
                lines.append(f"{name}_b = {name}")
                self.racy.update([name, f"{name}_b"])
                return f"{name}_b"
        self.body.append(f"{name} = {self.buffer()}")
        # another name for the iteration's own buffer is still its own; given to the
        # student's helpers only, as gcc's C for MiniTorch's does not compile (tcc's serial
        # build then runs, which the threads' runs here would not test)
        if self.own_helpers and r.random() < 0.3:
            self.body.append(f"{name}_b = {name}")
            return f"{name}_b"
        return name

    def position(self, var, buf, strides):
        if self.r.random() < 0.6:
            self.body.append(f"{var} = {{H}}index_to_position({buf}, {strides})")
        else:
            self.body += [f"{var} = 0",
                          f"for d in range(len({strides})):",
                          f"    {var} += {buf}[d] * {strides}[d]"]

    def value(self):
        return self.r.choice(["a[j] * 0.5 + float(i % 7)", "a[j] - 1.25", "float(i) * 0.25",
                              "a[j] * a[j]", "a[(j + 1) % len(a)] + 2.0", "float(idx[i % 8])",
                              "a[j] + tab[i % 8]"])

    def program(self, k):
        r = self.r
        races = self.races
        # a reduction keeps its type: an int one adds ints, a float one floats
        int_acc = r.random() < 0.5
        self.pre.append("acc = 0" if int_acc else "acc = 0.0")
        # a table every iteration reads: made and filled before the loop
        self.pre += ["tab = [0] * 8", "for e in range(8):",
                     f"    tab[e] = e * 3 - {r.randint(0, 9)}"]
        oi = self.index_buffer("oi")
        ai = self.index_buffer("ai")
        self.body.append(f"{{H}}to_index(i, out_shape, {oi})")
        self.body.append(f"{{H}}broadcast_index({oi}, out_shape, a_shape, {ai})")
        self.position("o", oi, "out_strides")
        self.position("j", ai, "a_strides")
        self.body.append(f"v = {self.value()}")
        if r.random() < 0.2:  # an inner loop: the iteration is heavier
            self.body += ["for t in range(3):", "    v = v + a[(j + t) % len(a)] * 0.25"]
        # the value goes to the iteration's own position: out, or another name for it
        c = r.random()
        target = "out"
        if c < 0.35:
            (self.body if c < 0.2 else self.pre).append("w = out")
            target = "w"
        at = "o" if r.random() < 0.8 else "i"
        if r.random() < 0.25:  # a helper writing out: refused, whatever it is given
            self.body.append(f"put({target}, {at}, v)")
            self.racy.update(["out", target])
            self.says = None  # two causes: either may be the one said
        else:
            self.body.append(f"{target}[{at}] = v")
        if r.random() < 0.5:
            self.body.append(r.choice(["acc += i % 5", "acc += o - j"] if int_acc else
                                      ["acc += a[j]", "acc += a[j] * 2.0 - 0.5"]))
        # stores every iteration makes at one position, or several at the same ones
        fixed = ["0", "n", "len(out) - 1", "idx[0]", "len(out) // 2"]
        if "store" in races:
            self.body.append(f"{target}[{r.choice(fixed)}] = v")
        if "store repeats" in races:
            self.body.append(f"{target}[{r.choice(['i % 3', 'i // 2', '(i + 1) // 2'])}] = v")
        if "store inner" in races:
            self.body += ["for t in range(2):", f"    {target}[t] = v"]
        if "put" in races:  # a helper given nothing that follows from i
            self.body.append(f"put({target}, {r.choice(fixed)}, 1.5)")
        if races & {"store", "store repeats", "store inner", "put"}:
            self.racy.update(["out", target])
        if "idx store" in races:
            self.body.append(r.choice(["idx[i % 8] = i", "idx[0] = i", "idx[n % 8] = 1"]))
            self.racy.add("idx")
        if "idx bump" in races:
            self.body.append(r.choice(["bump(idx, i % 8)", "bump(idx, 0)"]))
            self.racy.add("idx")
        if "tab store" in races:
            self.body.append(r.choice(["tab[i % 8] = i", "tab[0] = o"]))
            self.racy.add("tab")
        if "acc read" in races:
            self.body += ["acc += 1", "out[o] = float(acc)"]
            self.racy.add("acc")
        if "carried" in races:
            self.pre.append("last = 0")
            self.body.append("last = i")
            self.post.append("acc += last")
            self.racy.add("last")
        self.post.append("return acc")
        text = [f"def {{F}}{k}(out, out_shape, out_strides, a, a_shape, a_strides, idx, n):"]
        text += ["    " + ln for ln in self.pre]
        text += ["    for i in prange(len(out)):"] + ["        " + ln for ln in self.body]
        text += ["    " + ln for ln in self.post]
        return "\n".join(text) + "\n"


def _shapes(rng):
    """out's shape (256 to 900 elements: long enough to run on several threads), its strides
    (a permuted layout: positions still one per element), and a's shape, broadcast to it."""
    nd = rng.randint(1, 3)
    dims = [rng.randint(2, 12) for _ in range(nd - 1)]
    rest = 1
    for d in dims:
        rest *= d
    dims.append(max(1, (rng.randint(256, 900) + rest - 1) // rest))
    rng.shuffle(dims)
    out_shape = tuple(dims)
    perm = list(range(nd))
    rng.shuffle(perm)
    pstrides = _contiguous([out_shape[p] for p in perm])
    out_strides = [0] * nd
    for pos, p in enumerate(perm):
        out_strides[p] = pstrides[pos]
    a_shape = tuple(1 if rng.random() < 0.3 else d for d in out_shape)
    if nd > 1 and rng.random() < 0.3:
        a_shape = a_shape[rng.randint(1, nd - 1):]
    return out_shape, tuple(out_strides), a_shape, _contiguous(a_shape)


def _script(seed, n, runs):
    rng = random.Random(seed)
    parts = ["import minitorch", "import numpy as np", "from numba import njit, prange",
             "from minitorch import to_index, broadcast_index, index_to_position", HELPERS]
    calls, racy, says = [], {}, {}
    for k in range(n):
        prefix = "my_" if rng.random() < 0.5 else ""
        races = set()
        if rng.random() < 0.5:
            races = set(rng.sample(RACES, 1 if rng.random() < 0.8 else 2))
        gen = Gen(rng, prefix == "my_", races)
        text = gen.program(k)
        parts.append(text.replace("{F}", "p").replace("{H}", "py_"))
        parts.append(text.replace("{F}", "q").replace("{H}", prefix))
        parts.append(f"q{k} = njit(parallel=True)(q{k})")
        racy[k] = gen.racy
        says[k] = gen.says
        out_shape, out_strides, a_shape, a_strides = _shapes(rng)
        size = asize = 1
        for d in out_shape:
            size *= d
        for d in a_shape:
            asize *= d
        avals = [rng.randint(-32, 32) / 4 for _ in range(asize)]
        idx0 = [rng.randint(0, 3) for _ in range(8)]
        calls.append(f"{size}, {out_shape}, {out_strides}, {avals}, {a_shape}, {a_strides}, "
                     f"{idx0}, {rng.randint(0, 40)}")
    # the interpreter's result, then the first call (tcc's build, or the refusal) and the
    # second (gcc's build), one program after the other: gcc compiles one kernel at a time
    parts += ["progs = [" + ", ".join(f"[{k}, p{k}, q{k}, [{args}]]"
                                      for k, args in enumerate(calls)) + "]",
              "live = []",
              "for k, p, q, args in progs:",
              "    want = run(p, *args)",
              "    got = run(q, *args)",
              "    if isinstance(got[0], str) and got[0][:12] == 'CompileError':",
              "        print('program', k, 'refused', got[0])",
              "    else:",
              "        print('program', k, 'first', same(got, want))",
              "        print('program', k, 'second', same(run(q, *args), want))",
              "        parallel_diagnostics(q)",
              "        live.append([k, q, args, want])"]
    # every program that compiled, racy or not, again and again on 1, 2 and 8 threads
    for threads, times in [(1, 1), (2, runs), (8, runs)]:
        parts += [f"%threads {threads}",
                  "ran = 0",
                  "for k, q, args, want in live:",
                  f"    for t in range({times}):",
                  "        r = same(run(q, *args), want)",
                  "        ran += 1",
                  "        if r != 'same':",
                  f"            print('program', k, 'threads {threads}', r)",
                  f"print('threads {threads}:', ran, 'runs')"]
    parts.append("print('done')")
    return "\n".join(parts) + "\n", racy, says


@pytest.fixture(scope="module")
def cpus8():
    """A library that makes the kernel see 8 CPUs (so %threads 8 gives 8 threads)."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cpus8.c")
    with tempfile.TemporaryDirectory() as tmp:
        lib = os.path.join(tmp, "cpus8.so")
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", lib, src], check=True)
        yield lib


@pytest.mark.parametrize("part", range(PARTS))
def test_prange_races(part, cpus8, monkeypatch):
    seed = SEED + part
    monkeypatch.setenv("LD_PRELOAD", cpus8)
    text, racy, says = _script(seed, N_PROGRAMS // PARTS, RUNS)
    out = run_script(text, 900)
    lines = out.stdout.splitlines()
    assert out.returncode == 0 and lines and lines[-1] == "done", (out.stderr[-3000:], text)
    assert "not 8" not in out.stdout, "%threads 8 did not give 8 threads"
    n_live = sum(1 for ln in lines if re.match(r"program \d+ first ", ln))
    for threads, times in [(1, 1), (2, RUNS), (8, RUNS)]:
        assert f"threads {threads}: {n_live * times} runs" in lines
    diff = [ln for ln in lines if "DIFFERENT" in ln]
    assert not diff, "\n".join(diff[:5])
    # the runs after the first were gcc's parallel build, not tcc's serial one
    kept = [ln for ln in lines if "runs tcc's quick build" in ln]
    assert not kept, "\n".join(kept[:5])
    refused = {}
    for ln in lines:
        m = re.match(r"program (\d+) refused (.*)", ln)
        if m:
            refused[int(m.group(1))] = m.group(2)
    compiled = {int(m.group(1)) for m in
                (re.match(r"q(\d+)\(.*\): compiled to native code", ln) for ln in lines) if m}
    seconds = {int(m.group(1)) for m in
               (re.match(r"program (\d+) second same", ln) for ln in lines) if m}
    wrong = []
    for k, names in racy.items():
        if names:
            msg = refused.get(k, "")
            said = set(re.findall(r"\w+", msg.split(" cannot run in parallel: ", 1)[-1]))
            if (not msg.startswith("CompileError: ") or not names & said or
                    (says[k] and says[k] not in msg)):
                wrong.append(f"program {k}, racy on {sorted(names)}: {msg or 'compiled'}")
        elif k in refused or k not in compiled or k not in seconds:
            wrong.append(f"program {k}, race-free: {refused.get(k, 'not compiled')}")
    assert not wrong, "\n".join(wrong[:8])
    n_racy = sum(1 for v in racy.values() if v)
    print(f"seed {seed}: {n_racy} racy programs refused, {len(racy) - n_racy} race-free "
          f"compiled and equal to the interpreter at %threads 1, 2, 8")
