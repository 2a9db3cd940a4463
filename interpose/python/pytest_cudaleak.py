"""pytest plugin: each test must release the CUDA resources it creates, and may
be given a budget of device memory.

    pip install /opt/cudaleak/lib/cudaleak/python/pytest_cudaleak-*.whl   (no network needed)
    cudaleak run -- python -m pytest tests/

(or, without installing: PYTHONPATH=/opt/cudaleak/lib/cudaleak/python and
`-p pytest_cudaleak`). Under cudaleak:
- a test that leaves CUDA resources alive that the leak gate counts (the same
  suppressions, fail_on, min_bytes, baseline and caching-allocator rules as
  `cudaleak run --error-exitcode`) fails, with the kind, bytes and stack of
  each leak group down to the test's own line;
- a fixture of any scope whose setup created resources still alive after its
  teardown fails the teardown of the test that ended the fixture;
- @pytest.mark.cuda_limit_memory("24 MB") fails a test whose peak of device
  memory rises more than that above what was allocated when it began, naming
  the sites that grew; @pytest.mark.cuda_limit_leaks("1 MB") lets a test leak
  up to that many bytes (as pytest-memray's limit_memory and limit_leaks, for
  device memory). The ini options cuda_limit_memory and cuda_limit_leaks (or
  --cuda-limit-memory, --cuda-limit-leaks) set them for every test; a marker
  on a test, class or module (pytestmark) overrides them;
- the session ends with a table of the tests that used or leaked most.
Without cudaleak in the process the plugin does nothing. Memory that PyTorch's
or CuPy's caching allocator keeps in its cache is not a leak of the test
(count_cached=true makes it one). docs/python.md has the details.
"""
import ctypes
import re
import sys

import pytest

_MESSAGE_SIZE = 65536
# Units as pytest-memray reads them: KB, MB, GB are powers of 1024.
_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20,
          "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30, "T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40}
_SIZE = re.compile(r"^\s*([0-9]*\.?[0-9]+)\s*([A-Za-z]*)\s*$")
_FRAME = re.compile(r"^    (#\d+ |\.\.\. )")


class _Stats(ctypes.Structure):
    _fields_ = [("count", ctypes.c_ulonglong), ("bytes", ctypes.c_ulonglong)]


class _Verdict(ctypes.Structure):  # cudaleak_verdict in cudaleak.h
    _fields_ = [("alive", _Stats), ("failing", _Stats), ("file", ctypes.c_char * 512), ("line", ctypes.c_int)]


class _Peak(ctypes.Structure):  # cudaleak_peak in cudaleak.h
    _fields_ = [("bytes", ctypes.c_ulonglong), ("start", ctypes.c_ulonglong), ("device", ctypes.c_int),
                ("file", ctypes.c_char * 512), ("line", ctypes.c_int)]


class _Api:
    """The preload library's functions, or None for those it lacks (older)."""

    def __init__(self, process):
        def find(name, argtypes):
            fn = getattr(process, name, None)
            if fn is not None:
                fn.argtypes = argtypes
            return fn

        self.checkpoint = find("cudaleak_impl_checkpoint", [ctypes.c_char_p])
        self.gate_since = find("cudaleak_impl_gate_since",
                               [ctypes.c_char_p, ctypes.POINTER(_Verdict), ctypes.c_char_p, ctypes.c_ulong])
        self.sequence = find("cudaleak_impl_sequence", [ctypes.POINTER(ctypes.c_ulonglong)])
        self.gate_range = find("cudaleak_impl_gate_range", [ctypes.c_ulonglong, ctypes.c_ulonglong,
                                                            ctypes.POINTER(_Verdict), ctypes.c_char_p, ctypes.c_ulong])
        self.peak_begin = find("cudaleak_impl_peak_begin", [ctypes.c_ulonglong])
        self.peak_read = find("cudaleak_impl_peak_read", [ctypes.POINTER(_Peak), ctypes.c_char_p, ctypes.c_ulong])

    def now(self):
        value = ctypes.c_ulonglong(0)
        return value.value if self.sequence and self.sequence(ctypes.byref(value)) == 0 else None


def _api():
    process = ctypes.CDLL(None)
    return _Api(process) if hasattr(process, "cudaleak_impl_checkpoint") else None


_API = _api()


def parse_size(value):
    """Bytes from 1048576, "1 MB", "1.5GiB" (KB, MB, GB: powers of 1024, as pytest-memray)."""
    if isinstance(value, (int, float)):
        return int(value)
    match = _SIZE.match(str(value))
    unit = match.group(2).upper() if match else None
    if unit not in _UNITS:
        raise ValueError(f"cudaleak: {value!r} is not a size (e.g. 24 MB, 512 KiB, 1048576)")
    return int(float(match.group(1)) * _UNITS[unit])


def format_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} B" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return ""


def _plural(n, one, many):
    return f"{n} {one if n == 1 else many}"


# --- where a failure points: the test's own line, stacks stopping at it ---

def _code(function):
    """The code object of a test or fixture function (under its decorators)."""
    function = getattr(function, "__wrapped__", function)
    return getattr(function, "__code__", None)


def _frame_line(code, text):
    """The line of `code`'s function in the first stack of `text` that passes
    through it, else its def line."""
    if code is None:
        return None
    pattern = re.compile(r"\[python\] in (?:\S+\.)?" + re.escape(code.co_name) + " " + re.escape(code.co_filename) +
                         r":(\d+)")
    found = pattern.search(text)
    return f"{code.co_filename}:{found.group(1) if found else code.co_firstlineno}"


def _stop_at(code, text, keep=8):
    """Each stack of `text` cut after the frame of `code`'s function (the test
    or fixture: the pytest and pluggy frames that called it are in the
    report); a stack that does not pass through it keeps its first `keep`
    frames."""
    marker = f"[python] in {code.co_name} {code.co_filename}:" if code else None
    out, cut, shown = [], False, 0
    for line in text.splitlines():
        if not _FRAME.match(line):
            out.append(line)
            cut, shown = False, 0
            continue
        if cut:
            continue
        shown += 1
        out.append(line)
        if (marker and marker in line) or shown == keep:
            cut = True
            out.append("    ... (the rest of the stack is in the report)")
    return "\n".join(out)


# --- budgets ---

def _budget(item, name, option):
    marker = item.get_closest_marker(name)
    if marker is not None:
        if not marker.args:
            raise pytest.UsageError(f"cudaleak: @pytest.mark.{name} needs a size, e.g. {name}(\"24 MB\")")
        return parse_size(marker.args[0]), f"@pytest.mark.{name}"
    default = item.config.getoption("--" + option.replace("_", "-")) or item.config.getini(name)
    return (parse_size(default), name) if default else (None, None)


class _TorchPeak:
    """PyTorch's own peak over a test, when torch.cuda is initialized: its
    caching allocator may serve a test from its cache (no driver allocation at
    all) or grow it by more than the test asked. The peak counted is what
    tensors used (max_memory_allocated) plus what the driver saw beyond the
    allocator's own reservations."""

    def __init__(self):
        torch = sys.modules.get("torch")
        self.cuda = getattr(torch, "cuda", None) if torch else None
        if self.cuda is None or not self.cuda.is_initialized():
            self.cuda = None
            return
        self.start = {}
        for d in range(self.cuda.device_count()):
            self.start[d] = (self.cuda.memory_allocated(d), self.cuda.memory_reserved(d))
            self.cuda.reset_peak_memory_stats(d)

    def combine(self, driver_device, driver_rise):
        if self.cuda is None:
            return driver_device, driver_rise
        peaks = {driver_device: driver_rise}
        for d, (allocated, reserved) in self.start.items():
            tensors = max(0, self.cuda.max_memory_allocated(d) - allocated)
            cache_growth = max(0, self.cuda.max_memory_reserved(d) - reserved)
            peaks[d] = tensors + max(0, peaks.get(d, 0) - cache_growth)
        device = max(peaks, key=lambda d: peaks[d])
        return device, peaks[device]


class _Plugin:
    def __init__(self, config):
        self.config = config
        self.fixture_windows = {}  # id(fixturedef) -> (since, until, scope, nodeid)
        self.teardown_failures = {}  # nodeid -> [text]
        self.current = None  # the item being torn down
        self.usage = {}  # nodeid -> [peak bytes, leaked bytes]

    # The test's call: its leaks and its peak.
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        limit, limit_source = _budget(item, "cuda_limit_memory", "cuda_limit_memory")
        leak_limit, leak_source = _budget(item, "cuda_limit_leaks", "cuda_limit_leaks")
        name = ("pytest:" + item.nodeid).encode()
        _API.checkpoint(name)
        if _API.peak_begin:
            _API.peak_begin(limit or 0)
        torch_peak = _TorchPeak()
        yield
        failures = []
        peak, message = _Peak(), ctypes.create_string_buffer(_MESSAGE_SIZE)
        if _API.peak_read and _API.peak_read(ctypes.byref(peak), message, _MESSAGE_SIZE) == 0:
            device, used = torch_peak.combine(peak.device, peak.bytes)
            self.usage.setdefault(item.nodeid, [0, 0])[0] = used
            if limit is not None and used > limit:
                failures.append(self._over_budget(item, used, device, limit, limit_source, message.value))
        elif limit is not None:
            failures.append("cudaleak: this cudaleak has no memory budgets (cudaleak_impl_peak_read); update it")
        verdict, message = _Verdict(), ctypes.create_string_buffer(_MESSAGE_SIZE)
        if _API.gate_since(name, ctypes.byref(verdict), message, _MESSAGE_SIZE) == 0 and verdict.failing.count:
            self.usage.setdefault(item.nodeid, [0, 0])[1] = verdict.failing.bytes
            if leak_limit is None or verdict.failing.bytes > leak_limit:
                failures.append(self._leaked(item, verdict, message.value, leak_limit, leak_source))
        if failures:
            item._cudaleak_failure = "\n\n".join(failures)

    def _over_budget(self, item, used, device, limit, source, sites):
        text = (f"cudaleak: {item.name} used {format_bytes(used)} of device memory at its peak"
                f"{f' on device {device}' if device >= 0 else ''}, over its budget of {format_bytes(limit)} ({source})")
        code = _code(getattr(item, "function", None))
        where = _frame_line(code, sites.decode(errors="replace"))
        if where:
            text += f"\nat {where}"
        if sites:
            text += "\nThe sites that grew most during the test:\n" + _stop_at(code, sites.decode(errors="replace"))
        return text

    def _leaked(self, item, verdict, message, limit, source):
        n = verdict.failing.count
        text = (f"cudaleak: {_plural(n, 'CUDA resource', 'CUDA resources')} ({verdict.failing.bytes} bytes) "
                f"created by this test {'is' if n == 1 else 'are'} still alive")
        if limit is not None:
            text += f", over its budget of {format_bytes(limit)} ({source})"
        others = verdict.alive.count - n
        if others:
            text += f" (and {others} suppressed, cached or not counted by the gate)"
        message = message.decode(errors="replace")
        code = _code(getattr(item, "function", None))
        where = _frame_line(code, message)
        if where:
            text += f"\nat {where}"
        return text + "\n" + _stop_at(code, message)

    # Fixtures: what a fixture's setup created and its teardown did not release.
    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef, request):
        since = _API.now()
        outcome = yield
        until = _API.now()
        if since is not None and until is not None and until > since and outcome.excinfo is None:
            self.fixture_windows[id(fixturedef)] = (since, until, fixturedef.scope, request.node.nodeid)

    def pytest_fixture_post_finalizer(self, fixturedef, request):
        window = self.fixture_windows.pop(id(fixturedef), None)
        if window is None or not _API.gate_range:
            return
        since, until, scope, nodeid = window
        verdict, message = _Verdict(), ctypes.create_string_buffer(_MESSAGE_SIZE)
        if _API.gate_range(since, until, ctypes.byref(verdict), message, _MESSAGE_SIZE) != 0 or not verdict.failing.count:
            return
        n = verdict.failing.count
        text = (f"cudaleak: fixture '{fixturedef.argname}' ({scope} scope, set up for {nodeid}) left "
                f"{_plural(n, 'CUDA resource', 'CUDA resources')} ({verdict.failing.bytes} bytes) alive after its "
                f"teardown")
        message = message.value.decode(errors="replace")
        code = _code(fixturedef.func)
        where = _frame_line(code, message)
        if where:
            text += f"\nat {where}"
        text += "\n" + _stop_at(code, message)
        owner = self.current.nodeid if self.current is not None else nodeid
        self.teardown_failures.setdefault(owner, []).append(text)
        self.usage.setdefault(owner, [0, 0])[1] += verdict.failing.bytes

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item):
        self.current = item
        yield
        self.current = None

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        failure = None
        if call.when == "call":
            failure = getattr(item, "_cudaleak_failure", None)
        elif call.when == "teardown":
            failure = "\n\n".join(self.teardown_failures.pop(item.nodeid, [])) or None
        if failure and report.passed:
            report.outcome = "failed"
            report.longrepr = failure

    def pytest_terminal_summary(self, terminalreporter):
        top = self.config.getoption("--cudaleak-top")
        if not top or not self.usage:
            return
        write = terminalreporter.write_line
        by_peak = sorted(((u[0], n) for n, u in self.usage.items() if u[0]), reverse=True)[:top]
        if by_peak:
            terminalreporter.write_sep("=", "cudaleak: the tests that used the most device memory (peak)")
            for used, nodeid in by_peak:
                write(f"{format_bytes(used):>12}  {nodeid}")
        by_leak = sorted(((u[1], n) for n, u in self.usage.items() if u[1]), reverse=True)[:top]
        if by_leak:
            terminalreporter.write_sep("=", "cudaleak: the tests that leaked the most")
            for leaked, nodeid in by_leak:
                write(f"{format_bytes(leaked):>12}  {nodeid}")


def pytest_addoption(parser):
    group = parser.getgroup("cudaleak", "cudaleak: CUDA leaks and device memory budgets (under `cudaleak run`)")
    group.addoption("--cuda-limit-memory", metavar="SIZE", default=None,
                    help="fail a test whose peak of device memory rises more than SIZE (e.g. 24MB) above its start; "
                         "@pytest.mark.cuda_limit_memory overrides it (ini: cuda_limit_memory)")
    group.addoption("--cuda-limit-leaks", metavar="SIZE", default=None,
                    help="let each test leak up to SIZE bytes of CUDA memory (default: none); "
                         "@pytest.mark.cuda_limit_leaks overrides it (ini: cuda_limit_leaks)")
    group.addoption("--cudaleak-top", metavar="N", type=int, default=5,
                    help="tests listed in the session's tables of peak and leaked device memory (0: no table)")
    parser.addini("cuda_limit_memory", "default budget of each test's peak device memory (e.g. 24 MB)", default="")
    parser.addini("cuda_limit_leaks", "default bytes of CUDA memory each test may leak (e.g. 1 MB)", default="")


def pytest_configure(config):
    config.addinivalue_line("markers", "cuda_limit_memory(size): fail the test when its peak of device memory rises "
                                       "more than size (\"24 MB\") above its start (under cudaleak)")
    config.addinivalue_line("markers", "cuda_limit_leaks(size): fail the test when it leaks more than size "
                                       "(\"1 MB\") of CUDA memory (under cudaleak)")
    for name in ("cuda_limit_memory", "cuda_limit_leaks"):  # a typo fails at once, not at the first test
        value = config.getoption("--" + name.replace("_", "-")) or config.getini(name)
        if value:
            try:
                parse_size(value)
            except ValueError as e:
                raise pytest.UsageError(str(e))
    if _API is not None:
        config.pluginmanager.register(_Plugin(config), "cudaleak-session")
