# PyTorch's cudaMallocAsync backend (tests/gpu/python/
# scenario_async_backend.py: a tensor kept per step until the device is
# full): PyTorch shows no view of its own, the program runs to its own
# out-of-memory handling as without cudaleak, and the failure, seen in
# CUDA's stream-ordered pool, names the script's line, not as a leak.
# (About 6 s.)
# REQUIRES: gpu, torch
# RUN: %run --pytorch-stacks true -o %t/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_async_backend.py
# CHECK: oom after
# CHECK-NONE: Traceback
# RUN: %expr %t \
# RUN:   'len(oom_events()) >= 1 and not [e for e in oom_events() if "pytorch" in e]' \
# RUN:   '"train_step (scenario_async_backend.py:" in oom_events()[0]["diagnosis"][0]["message"] and oom_events()[0]["diagnosis"][0]["cause"] != "accumulating_leak"'
# CHECK-COUNT(2): holds:
