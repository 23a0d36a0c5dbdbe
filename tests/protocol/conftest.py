"""pytest set-up for the protocol tests of minitorch-kernel (tests/protocol/test_*.py).

Installs the `minitorch` and `minitorch-message` kernelspecs into a temp JUPYTER_PATH entry
(see mtkernel.py) and provides kernels to tests:

  kernel        one shared kernel (spec `minitorch`) per test module, for tests that leave it
                usable; yields (km, kc)
  start_kernel  a factory for fresh kernels, shut down after the test:
                km, kc = start_kernel("minitorch-message", stderr=f)

Marker `slow`: long tests (100 start/shutdown cycles, ...). They run by default; deselect
with `-m "not slow"`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mtkernel  # noqa: E402


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long test (runs by default; -m 'not slow' skips)")
    config.addinivalue_line("markers", "needs_binary: needs the minitorch-kernel binary itself")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if mtkernel.SELFTEST:
        skip = pytest.mark.skip(reason="needs the minitorch binary (ipykernel self-test mode)")
        for item in items:
            if "needs_binary" in item.keywords:
                item.add_marker(skip)


@pytest.fixture(scope="session", autouse=True)
def kernelspecs():
    """Installs the kernelspecs once; a missing/broken binary errors every test with the cause."""
    try:
        return mtkernel.setup()
    except mtkernel.SetupError as e:
        pytest.fail(f"cannot set up the minitorch kernelspecs: {e}", pytrace=False)


@pytest.fixture(scope="module")
def kernel(kernelspecs):
    km, kc = mtkernel.start_kernel(mtkernel.KERNEL_NAME)
    yield km, kc
    mtkernel.stop_kernel(km, kc)


@pytest.fixture
def kc(kernel):
    """The shared module kernel's client, with stale iopub messages drained."""
    _, client = kernel
    mtkernel.drain_iopub(client, quiet=0.02)
    return client


@pytest.fixture
def start_kernel(kernelspecs):
    started = []

    def start(name: str = mtkernel.KERNEL_NAME, **kw):
        km, kc = mtkernel.start_kernel(name, **kw)
        started.append((km, kc))
        return km, kc

    yield start
    for km, kc in started:
        mtkernel.stop_kernel(km, kc)
