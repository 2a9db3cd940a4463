# CuPy: arrays kept in a list until the device is full; CuPy's memory pool
# holds what they freed.
import cupy

kept = []


def make_batch(step):
    a = cupy.ones((64 << 20,), dtype=cupy.float32)  # LINE:alloc
    kept.append(a)
    cupy.zeros((1 << 20,), dtype=cupy.float32)  # freed at once: stays in CuPy's pool


try:
    for step in range(100000):
        make_batch(step)
except cupy.cuda.memory.OutOfMemoryError:
    print("oom after", len(kept), "steps")
