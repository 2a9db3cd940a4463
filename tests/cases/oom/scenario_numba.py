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

# On a real GPU: numba's retry after emptying its deallocation queue is one
# failure with an attempt, told once, caused by the arrays load_shard keeps;
# at exit what numba still holds (its queue, arrays alive at shutdown) is
# held by its memory manager, not leaked.
# REQUIRES: gpu, numba
# RUN: %run -o %t/r.%p.%n.json -- %python %s > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# CHECK-NONE: more out-of-memory event
# CHECK-NONE: detected CUDA resource leaks
# CHECK: numba memory manager
# RUN: %expr %t \
# RUN:   '[(e["diagnosis"][0]["cause"], "pytorch" in e, len(e.get("attempts", [])) >= 1) for e in oom_events() if not e.get("recovered")] == [("accumulating_leak", False, True)]' \
# RUN:   'all("load_shard (scenario_numba.py:%line:shard)" in e["diagnosis"][0]["message"] and ("1. " + e["diagnosis"][0]["message"]) in text("%t/out.txt") for e in oom_events() if not e.get("recovered"))' \
# RUN:   'all(x["summary"]["leaked_count"] == 0 and "numba memory manager" in x["summary"].get("cached_by", {}) for x in reports if x["reason"] == "exit")'
# CHECK-COUNT(3): holds:
