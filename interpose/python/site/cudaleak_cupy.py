"""CuPy's own numbers for its memory pools, for cudaleak reports.

Never imports cupy: cudaleak_watch waits for the program to import it. At
exit (and whenever the library asks for a fresh view), if the program used
CuPy's default memory pool, its numbers for the current device go to the
preload library (cudaleak_impl_cupy_view): bytes
held by the pool, bytes of those used by live arrays, free blocks, the limit,
and the pinned pool's free blocks. The pool's segments themselves are the
cudaMalloc calls cudaleak records, with their Python stacks ("held by caching
allocators"). Reading the numbers makes no CUDA call that could create a
context: cudaGetDevice and CuPy's own bookkeeping.
"""
import ctypes
import json
import sys

import cudaleak_watch



def pool_numbers(cupy):
    """The report's "cupy" section, or None when the pool was never used."""
    pool = cupy.get_default_memory_pool()
    total = int(pool.total_bytes())
    if not total:
        return None
    numbers = {"device": int(cupy.cuda.runtime.getDevice()), "used_bytes": int(pool.used_bytes()),
               "total_bytes": total, "free_blocks": int(pool.n_free_blocks())}
    get_limit = getattr(pool, "get_limit", None)
    if get_limit:
        numbers["limit_bytes"] = int(get_limit())
    pinned = getattr(cupy, "get_default_pinned_memory_pool", None)
    if pinned:
        numbers["pinned_free_blocks"] = int(pinned().n_free_blocks())
    return numbers


def send(when):
    cupy = sys.modules.get("cupy")
    if cupy is None:
        return
    try:
        fn = ctypes.CDLL(None).cudaleak_impl_cupy_view
    except (AttributeError, OSError):
        return  # not running under cudaleak
    try:
        numbers = pool_numbers(cupy)
        if numbers is None:
            return
        fn.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        fn.restype = ctypes.c_int
        fn(json.dumps(numbers).encode(), when.encode())
    except Exception as e:  # numbers are never worth a crash
        sys.stderr.write("cudaleak: CuPy pool numbers failed: %s\n" % e)


def _cupy_imported():
    if hasattr(sys.modules.get("cupy"), "get_default_memory_pool"):
        cudaleak_watch.at_exit(lambda: send("exit"))
        # Also at snapshots, reports, `top` frames and view_interval_ms: each
        # is a point of the pool's growth history (docs/python.md#growth-by-line).
        cudaleak_watch.offer_source(lambda: send("snapshot"))


def arm():
    cudaleak_watch.arm("cupy", _cupy_imported)
