# PyTorch keeps 70% of the device in live tensors, then CuPy in the same
# process asks for 40%: CuPy's pool retries and raises.
import cupy
import torch

kept = []


def keep_tensors():
    free, total = torch.cuda.mem_get_info()
    for _ in range(7):
        kept.append(torch.empty(int(total * 0.1), dtype=torch.uint8, device="cuda"))  # LINE:keep


keep_tensors()
free, total = torch.cuda.mem_get_info()
try:
    a = cupy.empty((int(total * 0.4),), dtype=cupy.uint8)  # LINE:cupy
    print("no oom")
except cupy.cuda.memory.OutOfMemoryError:
    print("oom as expected")

# On a real GPU: CuPy's retries are one story (not PyTorch's event), told
# once; the first cause is PyTorch's caching allocator holding the tensors
# keep_tensors made, and the failure names the CuPy call's line.
# REQUIRES: gpu, torch, cupy
# RUN: %run -o %t/r.%p.%n.json -- %python %s > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# CHECK: <module> (story_torch_then_cupy.py:%line:cupy)
# RUN: %expr %t \
# RUN:   '[(e["diagnosis"][0]["cause"], "pytorch" in e, len(e.get("attempts", [])) >= 1) for e in oom_events() if not e.get("recovered")] == [("held_by_cache", False, True)]' \
# RUN:   'all("keep_tensors (story_torch_then_cupy.py:%line:keep)" in e["diagnosis"][0]["message"] and ("1. " + e["diagnosis"][0]["message"]) in text("%t/out.txt") for e in oom_events() if not e.get("recovered"))' \
# RUN:   'all("PyTorch caching allocator" in e["diagnosis"][0]["message"] for e in oom_events() if not e.get("recovered"))'
# CHECK-COUNT(3): holds:
