"""pytest plugin: each test must release the CUDA resources it creates.

    cudaleak run -- python -m pytest -p pytest_cudaleak tests/
    (with this folder on PYTHONPATH)

Under cudaleak, a test that leaves CUDA resources alive fails with their count
and bytes; the run's report still lists every leak with its stack. Without
cudaleak in the process the plugin does nothing. Framework caches (PyTorch's
caching allocator) hold memory across tests by design: use it for tests whose
CUDA memory is their own, or empty the cache in a fixture.
"""
import ctypes

import pytest


class _Stats(ctypes.Structure):
    _fields_ = [("count", ctypes.c_ulonglong), ("bytes", ctypes.c_ulonglong)]


def _api():
    process = ctypes.CDLL(None)
    try:
        checkpoint = process.cudaleak_impl_checkpoint
        since = process.cudaleak_impl_leaks_since
    except AttributeError:
        return None
    checkpoint.argtypes = [ctypes.c_char_p]
    since.argtypes = [ctypes.c_char_p, ctypes.POINTER(_Stats)]
    return checkpoint, since


_API = _api()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    if _API is None:
        yield
        return
    name = ("pytest:" + item.nodeid).encode()
    _API[0](name)
    yield
    stats = _Stats()
    if _API[1](name, ctypes.byref(stats)) == 0 and stats.count:
        item._cudaleak_failure = (f"cudaleak: {stats.count} CUDA resources ({stats.bytes} bytes) "
                                  "created by this test are still alive")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    failure = getattr(item, "_cudaleak_failure", None)
    if failure and call.when == "call" and report.passed:
        report.outcome = "failed"
        report.longrepr = failure
