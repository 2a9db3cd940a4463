# A PyTorch process for the reachability scan on a real GPU: a model's weights
# and a tensor kept in a module-level list (PyTorch's caching allocator holds
# their segments: cached, not leaks), a tensor freed back to the cache, and a
# raw cudaMalloc through ctypes whose pointer is dropped (definitely lost) and
# one whose pointer a module global keeps as a Python int (not a raw word:
# the scan cannot see it, so it reads as definitely lost too; docs/python.md).
# reachability=auto leaves a Python process unscanned: its objects, not raw
# words, hold device memory, so every live resource counts, with no class;
# the default gate fails on the raw allocations, the caching allocator's
# segments are no leak. Asked for, the scan runs there too; the dropped
# pointer may read as lost or, through a stale copy in malloc's heap, as
# still reachable. (About 15 s.)
# REQUIRES: gpu, torch
# RUN(exit=9): %run --error-exitcode 9 -o %t/torch.json -- %python %s
# CHECK-DAG: torch program done
# CHECK-DAG-RE: 8\.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc
# CHECK-DAG-RE: raw_malloc (\(|/.*/)torch_reachability\.py:[0-9]+
# CHECK-NONE: definitely lost
# CHECK-NONE: still reachable
# RUN: %run --reachability true -o %t/scanned.json -- %python %s
# CHECK-RE: definitely lost: .*; still reachable:[ ]
import ctypes
import ctypes.util
import sys

import torch

KEPT = []
model = torch.nn.Linear(1024, 1024).cuda()
KEPT.append(torch.randn(4096, 1024, device="cuda"))
temporary = torch.randn(1024, 1024, device="cuda")
del temporary
torch.cuda.synchronize()

cudart = None
for name in ("libcudart.so.13", "libcudart.so.12", ctypes.util.find_library("cudart")):
    if not name:
        continue
    try:
        cudart = ctypes.CDLL(name)
        break
    except OSError:
        pass
if cudart is None:
    print("no libcudart to call cudaMalloc through ctypes")
    sys.exit(3)


def raw_malloc(nbytes):
    p = ctypes.c_void_p()
    rc = cudart.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(nbytes))
    assert rc == 0, rc
    return p.value


raw_malloc(8 << 20)                     # dropped: definitely lost
HELD_AS_INT = raw_malloc(2 << 20)       # a Python int: not a pointer in memory
print("torch program done", flush=True)
