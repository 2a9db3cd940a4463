# A stand-in for CuPy with just what cudaleak_cupy uses: the default memory
# pool (cudaMalloc through the simulated libcudart, freed blocks kept in a
# cache as CuPy keeps them), its numbers, the pinned pool and the current
# device. The pool's allocating function carries the name of CuPy's Cython
# symbol, which is what cudaleak's caching-allocator classification reads.
from . import cuda
from .cuda.memory import MemoryPool, PinnedMemoryPool

_pool = MemoryPool()
_pinned = PinnedMemoryPool()


def get_default_memory_pool():
    return _pool


def get_default_pinned_memory_pool():
    return _pinned


class ndarray:
    def __init__(self, nbytes):
        self.nbytes = nbytes
        self._ptr = _pool.malloc(nbytes)

    def __del__(self):
        _pool.free(self._ptr, self.nbytes)


def empty(nbytes):
    return ndarray(nbytes)
