"""pytest plugin: each test must release the CUDA resources it creates.

    pip install /opt/cudaleak/lib/cudaleak/python     (or interpose/python in the source tree)
    cudaleak run -- python -m pytest tests/

(or, without installing: PYTHONPATH=/opt/cudaleak/lib/cudaleak/python and
`-p pytest_cudaleak`). Under cudaleak, a test that leaves CUDA resources alive
that the leak gate counts (the same suppressions, fail_on, min_bytes, baseline
and caching-allocator rules as `cudaleak run --error-exitcode`) fails, with the
kind, bytes and stack of each leak group; the run's report still lists every
leak. Without cudaleak in the process the plugin does nothing. Memory that
PyTorch's or CuPy's caching allocator keeps in its cache is not a leak of the
test (count_cached=true makes it one).
"""
import ctypes

import pytest


class _Stats(ctypes.Structure):
    _fields_ = [("count", ctypes.c_ulonglong), ("bytes", ctypes.c_ulonglong)]


class _Verdict(ctypes.Structure):  # cudaleak_verdict in cudaleak.h
    _fields_ = [("alive", _Stats), ("failing", _Stats), ("file", ctypes.c_char * 512), ("line", ctypes.c_int)]


_MESSAGE_SIZE = 16384


def _api():
    process = ctypes.CDLL(None)
    try:
        checkpoint = process.cudaleak_impl_checkpoint
        gate_since = process.cudaleak_impl_gate_since
    except AttributeError:
        return None
    checkpoint.argtypes = [ctypes.c_char_p]
    gate_since.argtypes = [ctypes.c_char_p, ctypes.POINTER(_Verdict), ctypes.c_char_p, ctypes.c_ulong]
    return checkpoint, gate_since


_API = _api()


def _failure(verdict, message):
    n = verdict.failing.count
    text = (f"cudaleak: {n} CUDA resource{'' if n == 1 else 's'} ({verdict.failing.bytes} bytes) "
            f"created by this test {'is' if n == 1 else 'are'} still alive")
    others = verdict.alive.count - n
    if others:
        text += f" (and {others} suppressed, cached or not counted by the gate)"
    if verdict.file:
        text += f"\nat {verdict.file.decode(errors='replace')}:{verdict.line}"
    return text + "\n" + message.decode(errors="replace")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    if _API is None:
        yield
        return
    name = ("pytest:" + item.nodeid).encode()
    _API[0](name)
    yield
    verdict = _Verdict()
    message = ctypes.create_string_buffer(_MESSAGE_SIZE)
    if _API[1](name, ctypes.byref(verdict), message, _MESSAGE_SIZE) == 0 and verdict.failing.count:
        item._cudaleak_failure = _failure(verdict, message.value)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    failure = getattr(item, "_cudaleak_failure", None)
    if failure and call.when == "call" and report.passed:
        report.outcome = "failed"
        report.longrepr = failure
