# Cost of a Python stack per tracked call: cudaMalloc(256) + cudaFree through
# ctypes, 10 levels of Python calls deep. Prints "pair_ns MEDIAN" (median of 7 rounds).
import ctypes
import glob
import statistics
import sys
import time

for name in ["libcudart.so.13"] + glob.glob("/usr/local/cuda/lib64/libcudart.so.13*"):
    try:
        cudart = ctypes.CDLL(name)
        break
    except OSError:
        pass
n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
p = ctypes.c_void_p()
ref = ctypes.byref(p)
size = ctypes.c_size_t(256)


def pairs(depth):
    if depth:
        return pairs(depth - 1)
    t0 = time.perf_counter_ns()
    for _ in range(n):
        cudart.cudaMalloc(ref, size)
        cudart.cudaFree(p)
    return (time.perf_counter_ns() - t0) / n


pairs(10)  # warm-up: context, caches
print("pair_ns %.0f" % statistics.median(pairs(10) for _ in range(7)))
