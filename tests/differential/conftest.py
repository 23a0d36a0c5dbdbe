"""pytest set-up of the differential suite: libminitorch (ctypes, mtbind.py) against numpy.

Hypothesis profiles (pick with --hypothesis-profile=NAME; run.sh uses `ci`):
  ci   deadline off, few examples per test: the whole suite in a few minutes on 2 cores
  dev  many more examples, for hunting
No example database is written (database=None): the tree stays clean, and failures are
reported by hypothesis's printed falsifying example, which is enough to reproduce them.

Fixtures:
  ctx      a fresh engine context per test; at teardown every tensor still alive is released
           and the context must be back to 0 bytes of storage (a leak in the engine fails the
           test), then it is freed
  backend  parametrised over "simple" and "fast", and "cuda" where the engine can run it (a
           GPU, or MT_CUDA_PLUGIN naming the host stand-in of the cuda backend's library,
           tests/engine/cuda_standin.c: `make test` runs the suite's cuda cases that way)
"""

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mtbind  # noqa: E402

_common = dict(
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.register_profile("ci", max_examples=30, **_common)
settings.register_profile("dev", max_examples=300, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    config.addinivalue_line("markers", "bitwise: test_datamodel.py's programs over & | ^ << >>")


def pytest_sessionstart(session):
    # A suite that cannot reach the engine must fail, not skip. test_datamodel.py alone runs only
    # the kernel binary: it needs no engine library.
    if all(os.path.basename(a.split("::")[0]) == "test_datamodel.py" for a in session.config.args):
        return
    try:
        mtbind.lib()
    except (mtbind.LibraryMissing, OSError) as e:
        raise pytest.UsageError(f"differential suite: {e}")


@pytest.fixture
def ctx():
    c = mtbind.Ctx()
    yield c
    # no gc.collect(): at ~0.3 s a call it dominated the run; tensors still referenced (a
    # traceback's frames) are released by force here and their wrappers go inert
    for t in list(c._live):
        t.close()
    used = c.mem_used()
    c.close()
    assert used == 0, f"engine storage still counted after every tensor was released: {used} B"


@pytest.fixture(params=["simple", "fast"] + (["cuda"] if mtbind.cuda_available() else []))
def backend(request):
    return request.param
