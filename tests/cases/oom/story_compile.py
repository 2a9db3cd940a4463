# torch.compile (Triton kernels load CUDA modules), then each step's output
# kept in a list until the device is full.
import torch


@torch.compile
def fused(x):
    return torch.relu(x) * 2 + 1


outputs = []


def step():
    x = torch.randn(8192, 8192, device="cuda")
    outputs.append(fused(x))  # LINE:keep


try:
    while True:
        step()
except torch.OutOfMemoryError:
    print("oom after", len(outputs), "steps")

# On a real GPU: one event, PyTorch's own, with its attempts, told once; the
# first cause is the live tensors, naming step; Triton's modules never fail
# the gate.
# REQUIRES: gpu, torch
# RUN: %run -o %t/r.%p.%n.json -- %python %s > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# RUN: %expr %t \
# RUN:   '[(e["diagnosis"][0]["cause"], "pytorch" in e, len(e.get("attempts", [])) >= 1) for e in oom_events() if not e.get("recovered")] == [("live_tensors", True, True)]' \
# RUN:   'all("step (story_compile.py:" in e["diagnosis"][0]["message"] and ("1. " + e["diagnosis"][0]["message"]) in text("%t/out.txt") for e in oom_events() if not e.get("recovered"))' \
# RUN:   'not [g for x in reports if x["reason"] == "exit" for g in x["leaks"] if g["kind"] in ("module", "library") and g.get("fails_gate")]'
# CHECK-COUNT(3): holds:
