# numba-cuda: device arrays kept in a list each step, a scratch array freed
# each step (numba queues its free), then arrays of 1 GiB kept until an
# allocation fails: numba empties its deallocation queue, tries again, and
# raises CudaAPIError. Memory only: no kernel is compiled (numba-cuda's
# compiler and the installed numpy need not agree).
import numpy as np
from numba import cuda

kept = []


def step():
    weights = cuda.to_device(np.ones(1 << 20, dtype=np.float32))  # LINE:kept
    scratch = cuda.device_array(1 << 18, dtype=np.float32)  # LINE:scratch
    scratch.copy_to_device(np.zeros(scratch.size, dtype=np.float32))
    kept.append(weights)
    del scratch


def load_shard():
    kept.append(cuda.device_array(1 << 28, dtype=np.float32))  # LINE:shard


for _ in range(5):
    step()
cuda.synchronize()
try:
    while True:
        load_shard()
except cuda.cudadrv.driver.CudaAPIError as e:
    print("out of memory after", len(kept) - 5, "shards:", e)
