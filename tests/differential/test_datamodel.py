"""Python's data model for user classes: CPython against the kernel, on generated programs.

datamodel_gen.py writes, from a fixed seed, ~250 small deterministic programs over user classes
(operator methods and their reflected and in-place forms, comparisons with NotImplemented and
the order they ask the operands in, truth, items, iteration, containment, hashing, calls, text
and format, properties, classmethods, staticmethods, __getattr__/__setattr__ hooks, __dict__
and vars(), exception subclasses, super(), overridden dunders), a separate group over
& | ^ << >>, and ten
hand-written programs in MiniTorch's style (Scalar, Module, Function.apply). Each test runs one
program with CPython (this interpreter, or $MT_REFERENCE_PYTHON; the reference is CPython 3.11,
as the kernel's messages are) and with `minitorch-kernel run`, and compares stdout exactly and
whether each run failed. A failure names the program and shows both outputs and their diff.

The kernel: $MT_KERNEL_BIN, else the minitorch-kernel beside $MT_ENGINE_LIB (run.sh sets it),
else build/minitorch-kernel. Missing, every test fails (not xfails).

Run:
  .venv/bin/python -m pytest tests/differential/test_datamodel.py -q        (about 10 s)
  ... -k 'binop or reflected'                  some families (ids are FEATURE-NN, minitorch-*)
  ... -m 'not bitwise'                         without the & | ^ << >> group
  MT_KERNEL_BIN=/path/minitorch-kernel ...     another build
  python3 tests/differential/datamodel_gen.py --summary [KERNEL] [-v]   counts by feature
  python3 tests/differential/datamodel_gen.py --dump NAME | --diff NAME [KERNEL]

XFAIL below is the one list of what the kernel does not support yet: a program whose needs
include one of its keys is a strict xfail, so it must fail (a program that starts to pass is an
XPASS, which fails the suite: remove the entry when its feature lands). Only a difference in
output counts as the expected failure (KernelDiffers): a missing kernel or a program that
CPython itself cannot run fails the test even when it is marked xfail.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import datamodel_gen as gen  # noqa: E402

# need -> why the kernel fails on it today. Remove an entry when its feature lands; the strict
# xfails then tell whether every program that needs it passes. (datamodel_gen.py --summary reads
# this table too, from this file's text: keep it a plain dict of strings.)
XFAIL = {
}

PROGRAMS = gen.generate()
KERNEL = gen.default_kernel()
TIMEOUT = 20  # seconds a program may run, each way


class KernelDiffers(AssertionError):
    """The kernel's output or exit status differs from CPython's: the one failure an xfail
    expects."""


def _param(p):
    marks = []
    if p.group == "bitwise":
        marks.append(pytest.mark.bitwise)
    missing = [n for n in p.needs if n in XFAIL]
    if missing:
        reason = "; ".join(f"{n}: {XFAIL[n]}" for n in missing)
        marks.append(pytest.mark.xfail(reason=reason, strict=True, raises=KernelDiffers))
    return pytest.param(p, id=p.name, marks=marks)


@pytest.fixture(scope="module")
def kernel():
    if not os.access(KERNEL, os.X_OK):
        pytest.fail(f"{KERNEL}: no kernel binary (build the minitorch-kernel target, or set "
                    f"MT_KERNEL_BIN)")
    return KERNEL


@pytest.mark.parametrize("prog", [_param(p) for p in PROGRAMS])
def test_program(prog, kernel):
    ref, got = gen.run_both(prog, kernel, TIMEOUT)
    if ref.failed or not ref.stdout.endswith("end\n"):
        pytest.fail("CPython did not run the program to its end (a bug in datamodel_gen.py):\n"
                    + gen.report(prog, ref, got, kernel))
    if not gen.same(ref, got):
        raise KernelDiffers(gen.report(prog, ref, got, kernel))


def test_programs_are_what_the_suite_says():
    """Enough programs, unique names, every family present, needs that match the text (lint),
    and an XFAIL table that names only needs some program has."""
    datamodel = [p for p in PROGRAMS if p.group == "datamodel"]
    assert len(datamodel) >= 200, len(datamodel)
    assert len([p for p in PROGRAMS if p.group == "minitorch"]) == 10
    assert len({p.name for p in PROGRAMS}) == len(PROGRAMS)
    assert {f for f, _, _ in gen.FAMILIES} <= {p.feature for p in PROGRAMS}
    problems = [m for p in PROGRAMS for m in gen.lint(p)]
    assert not problems, "\n".join(problems)
    used = {n for p in PROGRAMS for n in p.needs}
    assert set(XFAIL) <= used, f"XFAIL names needs no program has: {set(XFAIL) - used}"
    assert set(XFAIL) <= set(gen.NEEDS)
    # the same seed gives the same programs
    assert [p.text for p in gen.generate()] == [p.text for p in PROGRAMS]
    # the summary reads this file's table
    assert gen.xfail_table() == XFAIL
