import os

_queued = []
_initialized = False


def get_allocator_backend():
    return os.environ.get("FAKE_TORCH_BACKEND", "native")


def is_initialized():
    return _initialized


def _lazy_call(fn):
    if _initialized:
        fn()
    else:
        _queued.append(fn)


def init():
    # As torch.cuda._lazy_init: a queued call that raises fails the program's
    # first CUDA use.
    global _initialized
    if _initialized:
        return
    import ctypes
    ctypes.CDLL("libcudart.so.13").cudaFree(None)  # the context, as torch makes it
    _initialized = True
    for fn in _queued:
        try:
            fn()
        except Exception as e:
            raise RuntimeError("CUDA call failed lazily at initialization with error: %s" % e) from e


def current_device():
    return 0


def device_count():
    return 1


class _Properties:
    def __init__(self, total_memory):
        self.total_memory = total_memory


def get_device_properties(device):
    import ctypes
    free, total = ctypes.c_size_t(), ctypes.c_size_t()
    ctypes.CDLL("libcudart.so.13").cudaMemGetInfo(ctypes.byref(free), ctypes.byref(total))
    return _Properties(total.value)


def memory_reserved(device=None):
    return sum(s["size"] for s in caching.segments)


from . import caching, memory  # noqa: E402,F401  (memory uses get_allocator_backend)
