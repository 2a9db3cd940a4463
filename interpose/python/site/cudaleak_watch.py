"""Runs a function once the program's own `import NAME` has finished, without
importing NAME itself (a finder on sys.meta_path that steps aside after the
first import). Used by cudaleak_torch, cudaleak_jax and cudaleak_cupy."""
import atexit
import ctypes
import importlib.abc
import importlib.util
import os
import sys

_armed = set()
_views = {}  # the library's view entry points by name, once looked up (False: not under cudaleak)


def view_entry(name):
    """The preload library's entry `name` taking (view JSON, moment), or
    False when the process does not run under cudaleak."""
    if name not in _views:
        try:
            fn = getattr(ctypes.CDLL(None), name)
            fn.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
            fn.restype = ctypes.c_int
            _views[name] = fn
        except (AttributeError, OSError):
            _views[name] = False
    return _views[name]


class _ImportWatch(importlib.abc.MetaPathFinder):
    def __init__(self, name, on_import):
        self._name = name
        self._on_import = on_import

    def find_spec(self, name, path, target=None):
        if name != self._name:
            return None
        sys.meta_path.remove(self)  # once: the spec below comes from the other finders
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        original = loader.exec_module
        on_import = self._on_import

        def exec_module(module):
            original(module)
            try:
                on_import()
            except Exception as e:  # never change the program's behaviour
                sys.stderr.write("cudaleak: %s view not armed: %s\n" % (name, e))

        loader.exec_module = exec_module
        return spec


def when_imported(name, on_import):
    """on_import() now if NAME is already imported, else right after its import."""
    if name in sys.modules:
        on_import()
    else:
        sys.meta_path.insert(0, _ImportWatch(name, on_import))


def arm(name, on_import):
    """when_imported(name, on_import), once per name, unless the views are
    turned off (CUDALEAK_PYTORCH_VIEW=0, set by --pytorch-view false)."""
    if name in _armed or os.environ.get("CUDALEAK_PYTORCH_VIEW", "1") == "0":
        return
    _armed.add(name)
    when_imported(name, on_import)


_at_exit = []


def _exit_through_views(real):
    def _exit(status):
        # os._exit skips atexit; the views are sent all the same, then the
        # process leaves exactly as it asked (cudaleak writes its report there).
        for fn in list(_at_exit):
            try:
                fn()
            except BaseException:  # never change how the program leaves
                pass
        real(status)

    _exit.__name__, _exit.__qualname__, _exit.__doc__ = real.__name__, real.__qualname__, real.__doc__
    _exit._cudaleak_real = real
    return _exit


def at_exit(fn):
    """fn() at the interpreter's exit, and also at os._exit, which skips
    atexit (a script that leaves by os._exit to skip slow teardown, a worker)."""
    atexit.register(fn)
    _at_exit.append(fn)
    if not hasattr(os._exit, "_cudaleak_real"):
        os._exit = _exit_through_views(os._exit)


_sources = []
_source_callback = None  # the ctypes callback the library calls; kept alive here


def _importing():
    """Whether a module is being imported, by any thread. A view taken then
    may import what the program is in the middle of importing: PyTorch's
    training step under view_interval_ms died with "cannot import name
    'IndentedBuffer' from 'torch._inductor.utils'" while its main thread was
    still importing torch._dynamo. Only the module's own __dict__ is read, so
    that no lazy module attribute runs."""
    for module in list(sys.modules.values()):
        try:
            spec = object.__getattribute__(module, "__dict__").get("__spec__")
        except Exception:
            continue
        if getattr(spec, "_initializing", False):
            return True
    return False


def _send_every_view():
    if _importing():
        return  # the next request takes the view; the last one kept stands meanwhile
    for fn in list(_sources):
        try:
            fn()
        except BaseException:  # one framework's view never stops another's
            pass


def _withdraw_source():
    # The callback dies with the interpreter: withdrawn before it goes.
    try:
        ctypes.CDLL(None).cudaleak_impl_python_view_source(None)
    except (AttributeError, OSError):
        pass


def offer_source(fn):
    """fn() sends a fresh view when the library asks for one (snapshot
    signals, reports the program asks for); every framework's source is
    called through the one function the library holds."""
    global _source_callback
    _sources.append(fn)
    if _source_callback is not None:
        return
    try:
        offer = ctypes.CDLL(None).cudaleak_impl_python_view_source
    except (AttributeError, OSError):
        return  # not running under cudaleak
    offer.argtypes = [ctypes.c_void_p]
    offer.restype = ctypes.c_int
    _source_callback = ctypes.CFUNCTYPE(None)(_send_every_view)
    offer(ctypes.cast(_source_callback, ctypes.c_void_p))
    at_exit(_withdraw_source)
