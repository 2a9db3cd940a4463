import ctypes

_cudart = ctypes.CDLL("libcudart.so.13")


def __pyx_f_4cupy_4cuda_6memory_19SingleDeviceMemoryPool__malloc(size):
    p = ctypes.c_void_p()
    if _cudart.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(size)) != 0:
        raise MemoryError("out of memory allocating %d bytes" % size)
    return p.value


_allocate = __pyx_f_4cupy_4cuda_6memory_19SingleDeviceMemoryPool__malloc  # no name mangling in the class


class MemoryPool:
    def __init__(self):
        self._free = {}  # size -> [pointers]
        self._used = 0
        self._cached = 0

    def malloc(self, size):
        if self._free.get(size):
            self._cached -= size
            ptr = self._free[size].pop()
        else:
            ptr = _allocate(size)
        self._used += size
        return ptr

    def free(self, ptr, size):
        self._used -= size
        self._cached += size
        self._free.setdefault(size, []).append(ptr)

    def used_bytes(self):
        return self._used

    def total_bytes(self):
        return self._used + self._cached

    def n_free_blocks(self):
        return sum(len(v) for v in self._free.values())

    def get_limit(self):
        return 0


class PinnedMemoryPool:
    def n_free_blocks(self):
        return 0
