# CuPy: two 64 MiB arrays kept, one 32 MiB array freed into the pool's cache.
# Run twice at once under one `cudaleak run` (tests/cases/python/cupy_pool.sh): the
# merged report keeps each process's pool.
import time

import cupy

kept = [cupy.ones((16 << 20,), dtype=cupy.float32) for _ in range(2)]
freed = cupy.zeros((8 << 20,), dtype=cupy.float32)
del freed
cupy.cuda.Device().synchronize()
time.sleep(1)  # both processes alive at once
print("pool", cupy.get_default_memory_pool().used_bytes(), cupy.get_default_memory_pool().total_bytes())
