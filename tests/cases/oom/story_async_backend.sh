# PyTorch's cudaMallocAsync backend on a real GPU
# (tests/gpu/python/scenario_async_backend.py): memory comes from CUDA's
# stream-ordered pool and PyTorch keeps no segments, yet the one failure is
# told once and its first cause names train_step.
# REQUIRES: gpu, torch
# RUN: %run -o %t/r.%p.%n.json -- %python %root/tests/gpu/python/scenario_async_backend.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# RUN: %expr %t \
# RUN:   'len([e for e in oom_events() if not e.get("recovered")]) == 1' \
# RUN:   'all(e["diagnosis"] and "train_step (scenario_async_backend.py:" in e["diagnosis"][0]["message"] for e in oom_events() if not e.get("recovered"))'
# CHECK-COUNT(2): holds:
