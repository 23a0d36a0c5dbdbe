# parallel_diagnostics' last call: no rate for the first call of a build (its time holds its
# threads' start and its pages' first touch) nor for storages of a few bytes, where fixed costs
# are most of the time; a rate for a later call over enough data.
# %%
from numba import njit, prange
import numpy as np


def _double(out, a):
    for i in prange(len(out)):
        out[i] = a[i] * 2.0


f = njit(parallel=True)(_double)
small = np.zeros(10)
big = np.zeros(100000)
f(small, small)
f.parallel_diagnostics()
# expect: _double(float64 array, float64 array): compiled to native code
# expect:   parallel: the prange loop (line 2 of _double)
# expect-re:     over [0-9]+ threads \(%threads\); .*
# expect:     in chunks of 1 to 65536 iterations, 8 per thread where the loop is long enough
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect-re:   arrays every iteration shares: out .*
# expect-re:   machine code.*
# expect-re:   last call: [0-9.]+ .s on [0-9]+ threads?, storages of 160 B \(each counted once\): the first call of this build, whose time holds its start \(no rate: call it again for one\)
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
for k in range(3):  # past the switch to gcc's build, where the first call ran tcc's
    f(small, small)
f.parallel_diagnostics()
# expect: _double(float64 array, float64 array): compiled to native code
# expect:   parallel: the prange loop (line 2 of _double)
# expect-re:     over [0-9]+ threads \(%threads\); .*
# expect:     in chunks of 1 to 65536 iterations, 8 per thread where the loop is long enough
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect-re:   arrays every iteration shares: out .*
# expect-re:   machine code.*
# expect-re:   last call: [0-9.]+ .s on [0-9]+ threads?, storages of 160 B \(each counted once\): too little data for a rate to mean anything
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
f(big, big)
f.parallel_diagnostics()
# expect: _double(float64 array, float64 array): compiled to native code
# expect:   parallel: the prange loop (line 2 of _double)
# expect-re:     over [0-9]+ threads \(%threads\); .*
# expect:     in chunks of 1 to 65536 iterations, 8 per thread where the loop is long enough
# expect:     the interrupt polled between chunks
# expect:   each iteration's own variables: i (int)
# expect-re:   arrays every iteration shares: out .*
# expect-re:   machine code.*
# expect-re:   last call: [0-9.]+ .s on [0-9]+ threads?, storages of 1.60 MB \(each counted once\): [0-9.]+ GB/s, .*
# expect:   integers: 64 bits; + - * wrap around past 2**63 - 1 as Numba's do, where the interpreter raises OverflowError; // and ** raise it as the interpreter does
