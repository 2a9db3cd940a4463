# Keeps each "request's" cache alive, as a server that stores every KV cache
# does, in tensors of uneven sizes, freeing a small scratch tensor after each:
# the device fills with live tensors, and the last request finds only pieces
# of free space in PyTorch's segments. The growth, not the fragmentation, is
# why memory ran out, on a real GPU: every PyTorch out-of-memory has a cause
# other than fragmentation first, fragmentation (if named) last and said to
# be not why memory ran out; the text names the line that keeps the caches.
# REQUIRES: gpu, torch
# RUN: %run -o %t/r.%p.%n.json -- %python %s
# CHECK: serve_request (growth_holes.py:%line:cache)
# RUN: %expr %t \
# RUN:   'all(len(E) > 0 and all(e["diagnosis"] and e["diagnosis"][0]["cause"] != "fragmentation" for e in E) for E in [[e for x in reports for e in x.get("oom_events", []) if "pytorch" in e]])' \
# RUN:   'all(e["diagnosis"][-1]["cause"] == "fragmentation" and "not why memory ran out" in e["diagnosis"][-1]["message"] for x in reports for e in x.get("oom_events", []) if "pytorch" in e and "fragmentation" in [d["cause"] for d in e["diagnosis"]])'
# CHECK-COUNT(2): holds:
import torch

kept = []


def serve_request(i):
    scratch = torch.empty((64 + 8 * (i % 5)) << 20, dtype=torch.uint8, device="cuda")
    cache = torch.empty((700 + 97 * (i % 4)) << 20, dtype=torch.uint8, device="cuda")  # LINE:cache
    kept.append(cache)
    del scratch


try:
    for i in range(10000):
        serve_request(i)
except torch.OutOfMemoryError:
    print("oom after", len(kept), "requests")

