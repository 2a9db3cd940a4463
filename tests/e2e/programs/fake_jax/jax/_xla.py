# XLA's allocator in miniature, over the simulated GPU (cudart through
# ctypes). As XLA_PYTHON_CLIENT_* ask:
#   default                 one cudaMalloc of MEM_FRACTION (0.75) of the device
#                           at first use, arrays placed inside it (first fit);
#                           a request that fits nowhere fails with no CUDA call
#   PREALLOCATE=false       a cudaMalloc per array, up to MEM_FRACTION of the
#                           device; a failed cudaMalloc is retried as the BFC
#                           allocator grows its pool: three rounds of regions
#                           from 4x the request down by 10% to the request
#                           (42 failed calls), FAKE_JAX_RAISE_DELAY_S seconds
#                           in all between them (XLA waits 10 s for frees)
#   ALLOCATOR=platform      a cudaMalloc per array, freed when the array dies;
#                           no limit, no memory_stats limit
# Failures raise errors.JaxRuntimeError with XLA's BFC allocator's text:
# "RESOURCE_EXHAUSTED: Out of memory while trying to allocate 16.00MiB with
# allocator GPU_0_bfc on device 0. [...]" (the size rounded, as jaxlib 0.11).
import ctypes
import os
import time

from . import errors

JAX_FILE = "/usr/lib/python3/dist-packages/jax/_src/numpy/array_creation.py"  # where JAX's own frames live


def _cudart():
    lib = ctypes.CDLL("libcudart.so.13")
    lib.cudaMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
    lib.cudaFree.argtypes = [ctypes.c_void_p]
    lib.cudaSetDevice.argtypes = [ctypes.c_int]
    return lib


def _mode():
    if os.environ.get("XLA_PYTHON_CLIENT_ALLOCATOR") == "platform":
        return "platform"
    return "grow" if os.environ.get("XLA_PYTHON_CLIENT_PREALLOCATE") == "false" else "prealloc"


def human(n):
    """As XLA's HumanReadableNumBytes: "200.00MiB"."""
    for unit, size in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return "%.2f%s" % (n / float(size), unit)
    return "%dB" % n


def oom(nbytes, ordinal, extra=""):
    return errors.JaxRuntimeError(
        "RESOURCE_EXHAUSTED: Out of memory while trying to allocate %s with allocator GPU_%d_bfc on device %d. "
        "[executable_name='jit_broadcast_in_dim'] [tf-allocator-allocation-error='']%s" % (human(nbytes), ordinal, ordinal, extra))


class Pool:
    def __init__(self, ordinal):
        self.ordinal = ordinal
        self.mode = _mode()
        self.total = None
        self.base = None
        self.free = []       # (offset, size) inside the preallocation
        self.in_use = 0
        self.peak = 0
        self.allocs = 0

    def _device_total(self):
        if self.total is None:
            lib = _cudart()
            lib.cudaSetDevice(self.ordinal)
            lib.cudaFree(None)  # the context, as XLA makes it at first use
            free, total = ctypes.c_size_t(), ctypes.c_size_t()
            lib.cudaMemGetInfo(ctypes.byref(free), ctypes.byref(total))
            self.total = total.value
        return self.total

    def limit(self):
        if self.mode == "platform":
            return 0
        fraction = float(os.environ.get("XLA_PYTHON_CLIENT_MEM_FRACTION", "0.75"))
        return int(self._device_total() * fraction) // (1 << 20) * (1 << 20)

    def _cuda_malloc(self, nbytes):
        lib = _cudart()
        lib.cudaSetDevice(self.ordinal)
        ptr = ctypes.c_void_p()
        return ptr.value if lib.cudaMalloc(ctypes.byref(ptr), nbytes) == 0 else None

    def allocate(self, nbytes, detail=""):
        """A handle for `nbytes`, or raises XLA's out-of-memory (with `detail`
        after its first line)."""
        self._device_total()
        if self.mode == "prealloc":
            if self.base is None:
                self.base = self._cuda_malloc(self.limit())
                self.free = [(0, self.limit())] if self.base else []
            for i, (offset, size) in enumerate(self.free):
                if size >= nbytes:
                    self.free[i] = (offset + nbytes, size - nbytes)
                    return self._taken(("pool", offset, nbytes))
            raise oom(nbytes, self.ordinal, detail)
        if self.mode == "grow" and self.in_use + nbytes > self.limit():
            raise oom(nbytes, self.ordinal, detail)
        ptr = self._cuda_malloc(nbytes)
        if ptr is None and self.mode == "grow":
            ptr = self._grow(nbytes)
        elif ptr is None:
            ptr = self._cuda_malloc(nbytes)  # the platform allocator's retry
        if ptr is None:
            raise oom(nbytes, self.ordinal, detail)
        return self._taken(("cuda", ptr, nbytes))

    def _grow(self, nbytes):
        """The BFC allocator's growth after a failed call: regions from 4x
        the request down by 10% while they cover it, in three rounds spread
        over FAKE_JAX_RAISE_DELAY_S seconds (XLA waits for frees before it
        raises)."""
        delay = float(os.environ.get("FAKE_JAX_RAISE_DELAY_S", "0"))
        for round_ in range(3):
            size = 4 * nbytes
            while size >= nbytes:
                ptr = self._cuda_malloc(size)
                if ptr is not None:
                    return ptr
                size = size * 9 // 10
            if round_ < 2:
                time.sleep(delay / 2)
        return None

    def _taken(self, handle):
        self.in_use += handle[2]
        self.peak = max(self.peak, self.in_use)
        self.allocs += 1
        return handle

    def release(self, handle):
        self.in_use -= handle[2]
        self.allocs -= 1
        if handle[0] == "pool":
            self.free.append((handle[1], handle[2]))
            self.free.sort()
        elif self.mode == "platform":
            _cudart().cudaFree(handle[1])
        # "grow" keeps its regions, as the BFC allocator keeps its pool

    def stats(self):
        if self.mode == "platform":
            return None  # XLA's platform allocator reports no statistics
        largest = max((size for _, size in self.free), default=0) if self.mode == "prealloc" else 0
        s = {"bytes_in_use": self.in_use, "peak_bytes_in_use": self.peak, "bytes_limit": self.limit(),
             "num_allocs": self.allocs}
        if self.mode == "prealloc":
            s["largest_free_block_bytes"] = largest
            s["pool_bytes"] = self.limit()
        return s
