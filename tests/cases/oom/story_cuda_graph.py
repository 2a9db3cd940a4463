# A model captured in a CUDA graph (its private memory pool), then each
# replay's output kept in a list until the device is full.
import torch

model = torch.nn.Sequential(torch.nn.Linear(4096, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 4096)).cuda()
static_in = torch.randn(8192, 4096, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):
        model(static_in)
torch.cuda.current_stream().wait_stream(s)
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    static_out = model(static_in)
outputs = []


def step():
    graph.replay()
    outputs.append(static_out.clone())  # LINE:keep


try:
    while True:
        step()
except torch.OutOfMemoryError:
    print("oom after", len(outputs), "steps")

# On a real GPU: one event, PyTorch's own, with its attempts, told once; the
# first cause is the live tensors, naming step.
# REQUIRES: gpu, torch
# RUN: %run -o %t/r.%p.%n.json -- %python %s > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# RUN: %expr %t \
# RUN:   '[(e["diagnosis"][0]["cause"], "pytorch" in e, len(e.get("attempts", [])) >= 1) for e in oom_events() if not e.get("recovered")] == [("live_tensors", True, True)]' \
# RUN:   'all("step (story_cuda_graph.py:" in e["diagnosis"][0]["message"] and ("1. " + e["diagnosis"][0]["message"]) in text("%t/out.txt") for e in oom_events() if not e.get("recovered"))'
# CHECK-COUNT(2): holds:
