# cuda-python (cuda.bindings): 1 GiB buffers allocated each step and never
# freed, until cudaMalloc returns out-of-memory to the program.
from cuda.bindings import runtime as cudart

buffers = []


def load_shard():
    err, ptr = cudart.cudaMalloc(1 << 30)  # LINE:malloc
    if err != cudart.cudaError_t.cudaSuccess:
        return False
    buffers.append(ptr)
    return True


while load_shard():
    pass
print("out of memory after", len(buffers), "shards")

# On a real GPU: cudaMalloc returns out-of-memory to the program (no
# PyTorch, no retry): one event, told once, its first cause the accumulating
# leak of load_shard's line, named in the failure's first line.
# REQUIRES: gpu, cuda.bindings
# RUN: %run -o %t/r.%p.%n.json -- %python %s > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# CHECK: in load_shard (story_cuda_python.py:%line:malloc)
# RUN: %expr %t \
# RUN:   '[(e["diagnosis"][0]["cause"], "pytorch" in e) for e in oom_events() if not e.get("recovered")] == [("accumulating_leak", False)]' \
# RUN:   'all("load_shard (story_cuda_python.py:%line:malloc)" in e["diagnosis"][0]["message"] and ("1. " + e["diagnosis"][0]["message"]) in text("%t/out.txt") for e in oom_events() if not e.get("recovered"))'
# CHECK-COUNT(2): holds:
