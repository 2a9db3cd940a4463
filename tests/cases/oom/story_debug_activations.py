# Activations kept in a global list "for debugging" during a big epoch, the
# cache emptied, then a batch of one fails: the live activations hold the device.
import torch

model = torch.nn.Sequential(torch.nn.Linear(8192, 8192), torch.nn.ReLU()).cuda()
debug_activations = []


def big_epoch(share):
    free, total = torch.cuda.mem_get_info()
    per_batch = 4096 * 8192 * 4
    for _ in range(int(total * share) // per_batch):
        x = torch.randn(4096, 8192, device="cuda")
        h = model(x)  # LINE:forward
        debug_activations.append(h.detach())  # kept "for debugging"
        del x, h


def predict_one():
    x = torch.randn(1, 8192, device="cuda")
    free, total = torch.cuda.mem_get_info()
    lookup = torch.empty(int(total * 0.3), dtype=torch.uint8, device="cuda")  # LINE:predict
    return model(x), lookup


big_epoch(0.75)
torch.cuda.empty_cache()
try:
    predict_one()
    print("no oom")
except torch.OutOfMemoryError:
    print("oom as expected")

# On a real GPU with default options: one event, PyTorch's own, with its
# attempts, told once; the first cause is the live tensors in segments
# reserved by big_epoch; the failure names predict_one's line.
# REQUIRES: gpu, torch
# RUN: %run -o %t/r.%p.%n.json -- %python %s > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# CHECK-DAG: out of memory: PyTorch could not allocate
# CHECK-DAG: predict_one (story_debug_activations.py:%line:predict)
# RUN: %expr %t \
# RUN:   '[(e["diagnosis"][0]["cause"], "pytorch" in e, len(e.get("attempts", [])) >= 1) for e in oom_events() if not e.get("recovered")] == [("live_tensors", True, True)]' \
# RUN:   'all("in segments reserved by big_epoch (story_debug_activations.py:" in e["diagnosis"][0]["message"] and ("1. " + e["diagnosis"][0]["message"]) in text("%t/out.txt") for e in oom_events() if not e.get("recovered"))'
# CHECK-COUNT(2): holds:
