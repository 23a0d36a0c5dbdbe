"""njit's loops run in groups of iterations (unroll-and-jam), against the interpreter.

A loop whose body is statements around one inner loop (the textbook matrix multiply's `for j`)
runs four iterations at a time, each with variables of its own. Each random program here is such
a nest over three float32 Storages: index arithmetic on the loop variables, an inner loop that
accumulates (float or int) products or sums of elements, and a store after it, with counts that
leave iterations over (0 to 11 of them, steps 1, 2 and -1), indices that run outside a storage in
some programs, and, in some calls, the output given as an input too (the groups must then not
run). Each program is written three times in one script run by the kernel: as it is (the
interpreter runs it), given to njit, and given to njit with a statement that keeps its loop from
being grouped. The storages after the call and the error raised must be the interpreter's, and
an error's message (the index and the storage) the ungrouped build's: an index out of range in a
group is the one the iterations in order meet first, after the same stores. The grouped twin
must say that its loop runs in groups, and the other that it does not.

A third of the programs put the nest in a prange loop (its first call runs gcc's build of the
loops as written, the second the grouped one): there the order in which iterations wrote before
an error is not fixed, so only the error's type is compared then.
"""

import random

import pytest

from helpers import run_script

N_PROGRAMS = 60
SIZE = 64


def _program(r, k, parallel):
    """The text of p{k} (as written), q{k} (to njit) and r{k} (to njit, never grouped)."""
    j0 = r.randint(0, 2)
    j1 = j0 + r.randint(0, 11)
    step = r.choice([1, 1, 1, 2, -1])
    jr = f"range({j1}, {j0}, -1)" if step < 0 else f"range({j0}, {j1}, {step})"
    kr = r.choice([f"range({r.randint(0, 5)})", f"range(m, {r.randint(1, 6)})"])
    far = r.random() < 0.2  # indices that may leave the storages: an IndexError somewhere
    c = lambda: r.randint(-70 if far else -3, 70 if far else 3)
    ai = f"n * {r.randint(0, 9)} + i * {r.randint(0, 4)} + {c()}"
    bi = f"j * {r.choice([1, 2, -1])} + {c()}"
    # an index that leaves b part way through the loop over j, so that a group holds
    # iterations before the first that fails, which must store what they computed
    edge = not parallel and r.random() < 0.3
    if edge:
        bi = f"j * {r.randint(1, 3)} + {SIZE - r.randint(4, 20)}"
    # in a prange loop, each n its own elements of out (iterations writing one are a race)
    oi = f"n * 32 + i * {r.randint(0, 6)} + j + {c() if far and not parallel else r.randint(0, 3)}"
    acc0 = r.choice(["0.0", "0.0", "0", "m * 0.5"])
    term = r.choice(["a[ai] * b[bi]", "a[ai] - b[bi] * 0.5", "a[ai] + 1.5", "ai * 2 - bi",
                     "a[ai] * kk + b[bi + kk]"])
    if edge:
        kr = f"range({r.randint(1, 4)})"
        term = r.choice(["a[ai] * b[bi]", "b[bi] - a[ai]"])
    if acc0 == "0" and "a[" in term:
        acc0 = "0.0"
    extra = r.random() < 0.5
    body = [
        f"        for i in range({r.randint(1, 3)}):",
        f"            for j in {jr}:",
        "@BLOCK@",
        f"                ai = {ai}",
        f"                bi = {bi}",
        f"                acc = {acc0}",
    ]
    if extra:
        body.append(f"                t = j * {r.randint(-2, 2)} - i")
    body += [
        f"                for kk in {kr}:",
        f"                    acc {r.choice(['+=', '+=', '-='])} {term}",
        f"                    ai {r.choice(['+', '-'])}= {r.randint(0, 3)}",
        f"                    bi += {r.randint(-1, 3)}",
        f"                out[{oi}] = acc{' + t' if extra else ''}",
    ]
    loop = "prange(2)" if parallel else "range(2)"

    def fn(name, block):
        lines = [f"def {name}(out, a, b, m):", "    s = 0", f"    for n in {loop}:"]
        for ln in body:
            if ln == "@BLOCK@":
                if block:  # an if statement: a loop with one is not grouped
                    lines.append("                if m < -1000:")
                    lines.append("                    pass")
            else:
                lines.append(ln)
        return lines + ["    return s", ""]

    return "\n".join(fn(f"p{k}", False) + fn(f"q{k}", False) + fn(f"r{k}", True))


def _script(seed):
    rng = random.Random(seed)
    parts = ["import minitorch", "from numba import njit, prange", "",
             "def run(fn, av, bv, alias, m):",
             f"    out = minitorch.tensor([0.0] * {SIZE})",
             "    a = out if alias else minitorch.tensor(av)",
             "    b = minitorch.tensor(bv)",
             "    try:",
             "        fn(out.tuple()[0], a.tuple()[0], b.tuple()[0], m)",
             "        e = None",
             "    except Exception as x:",
             "        e = x",
             "    return [[v for v in out.tuple()[0]], [v for v in a.tuple()[0]],",
             "            type(e).__name__ if e else None, str(e) if e else None]", ""]
    for k in range(N_PROGRAMS):
        parallel = k % 3 == 0
        parts.append(_program(rng, k, parallel))
        av = [rng.choice([0.5, -1.25, 2.0, 3.5, -0.75, 1.0]) for _ in range(SIZE)]
        bv = [rng.choice([1.5, -0.5, 0.25, 4.0]) for _ in range(SIZE)]
        alias = not parallel and rng.random() < 0.3  # in a prange loop, a race
        m = rng.randint(0, 2)
        args = f"{av}, {bv}, {alias}, {m}"
        parts += [f"q{k} = njit(parallel=True)(q{k})",
                  f"r{k} = njit(parallel=True)(r{k})",
                  f"e = run(p{k}, {args})",
                  f"g1 = run(q{k}, {args})",
                  f"g2 = run(q{k}, {args})",
                  f"w = run(r{k}, {args})"]
        if parallel:  # which iterations wrote before an error is not fixed in a prange loop
            parts.append("ok = all((x[:3] == e[:3]) if e[2] is None else x[2] == e[2]"
                         " for x in (g1, g2, w))")
        else:
            parts.append("ok = g1[:3] == g2[:3] == w[:3] == e[:3] and g1[3] == g2[3] and "
                         f"str(g1[3])[:-{len(f' (compiled q{k}())')}] == "
                         f"str(w[3])[:-{len(f' (compiled q{k}())')}]")
        parts += [f"print('program {k}', 'same' if ok else 'DIFFERENT', e, g1, g2, w)",
                  f"parallel_diagnostics(q{k})", f"parallel_diagnostics(r{k})", ""]
    return "\n".join(parts)


@pytest.mark.parametrize("seed", [1, 2])
def test_grouped_loops(seed):
    text = _script(seed)
    out = run_script(text, 600)
    lines = out.stdout.splitlines()
    results = [ln for ln in lines if ln.startswith("program ")]
    assert out.returncode == 0 and len(results) == N_PROGRAMS, (out.stderr[-3000:], text)
    diff = [ln for ln in results if " DIFFERENT " in ln]
    assert not diff, "\n".join(diff[:5])
    # each q's report says its loop runs in groups, each r's does not
    grouped, name = {}, None
    for ln in lines:
        if ": compiled to native code" in ln:
            name = ln.split("(")[0]
            grouped[name] = False
        elif ln.startswith("program "):
            name = None
        elif name and "iterations at a time" in ln:
            grouped[name] = True
    assert len(grouped) == 2 * N_PROGRAMS, "\n".join(ln for ln in lines if "interpreter" in ln)
    wrong = [n for n, g in grouped.items() if g != n.startswith("q")]
    assert not wrong, wrong[:10]
    # some programs raised
    errors = [ln for ln in results if "'IndexError'" in ln]
    assert 0 < len(errors) < N_PROGRAMS // 2
