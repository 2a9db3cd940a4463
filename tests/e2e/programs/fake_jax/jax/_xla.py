# XLA's allocator in miniature, over the simulated GPU (cudart through
# ctypes). As XLA_PYTHON_CLIENT_* ask:
#   default                 one cudaMalloc of MEM_FRACTION (0.75) of the device
#                           at first use, arrays placed inside it (first fit);
#                           a request that fits nowhere fails with no CUDA call
#   PREALLOCATE=false       a cudaMalloc per array, up to MEM_FRACTION of the
#                           device; a failed cudaMalloc is retried once
#   ALLOCATOR=platform      a cudaMalloc per array, freed when the array dies;
#                           no limit, no memory_stats limit
# Failures raise errors.JaxRuntimeError("RESOURCE_EXHAUSTED: Out of memory
# while trying to allocate N bytes."), as XLA's BFC allocator does.
import ctypes
import os

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


def oom(nbytes, extra=""):
    return errors.JaxRuntimeError("RESOURCE_EXHAUSTED: Out of memory while trying to allocate %d bytes.%s" % (nbytes, extra))


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
            raise oom(nbytes, detail)
        if self.mode == "grow" and self.in_use + nbytes > self.limit():
            raise oom(nbytes, detail)
        ptr = self._cuda_malloc(nbytes)
        if ptr is None:
            ptr = self._cuda_malloc(nbytes)  # the BFC allocator's retry
        if ptr is None:
            raise oom(nbytes, detail)
        return self._taken(("cuda", ptr, nbytes))

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
