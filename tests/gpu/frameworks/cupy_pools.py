# CuPy with its device memory pool and pinned memory pool.
import cupy as cp
import numpy as np

a = cp.arange(1 << 20, dtype=cp.float32)
b = (a * 2).sum()
pinned = cp.cuda.alloc_pinned_memory(1 << 20)
host = np.frombuffer(pinned, dtype=np.float32, count=1 << 18)
host[:] = 1
c = cp.asarray(host).sum()
print(f"sum {float(b):.1f} {float(c):.1f}")
