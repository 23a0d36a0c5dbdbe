"""A smoke run of the fuzzer of compiled code, tests/fuzz/jit_fuzz.py (its top comment says what
it generates and checks): a few dozen random njit functions and cuda.jit kernels, each compiled
once and run a few hundred times beside the interpreter. Any crash, hang, unlocated error or
result that differs from the interpreter's (outside the reported divergences the fuzzer counts
apart) fails it, with the findings' scripts under pytest's tmp_path. The programs are fixed by
JIT_FUZZ_SEED (default 1); `make fuzz-jit` runs the long campaign.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fuzz"))

import jit_fuzz  # noqa: E402


def test_jit_fuzz_smoke(tmp_path):
    kernel = os.path.join(os.path.dirname(os.environ.get("MT_ENGINE_LIB", "")), "minitorch-kernel")
    assert os.access(kernel, os.X_OK), f"no kernel binary at {kernel}"
    out = tmp_path / "findings"
    stats, findings = jit_fuzz.campaign(kernel, programs=30, runs=300, cuda_runs=60,
                                        cuda_share=0.3,
                                        seed=int(os.environ.get("JIT_FUZZ_SEED", "1")), jobs=2,
                                        out=str(out), known=False, stall=60)
    summary = "\n".join(f"{f['kind']}: program {f['program']}, arguments {f['run']}"
                        for f in findings[:10])
    assert not findings, f"{len(findings)} findings, scripts in {out}:\n{summary}"
    # the programs ran: most compiled, and many runs compared equal
    assert stats["executions"] > 5000 and stats["compared equal"] > stats["executions"] // 2
