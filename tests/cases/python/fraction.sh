# A per-process memory fraction (tests/gpu/python/scenario_fraction.py):
# PyTorch refuses the 4 GiB request itself, without a failing cudaMalloc;
# its one out-of-memory reads as the allocator's limit first. (About 12 s.)
# REQUIRES: gpu, torch
# RUN: %run --pytorch-stacks true -o %t/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_fraction.py
# CHECK: oom as expected
# RUN: %expr %t \
# RUN:   '[e["diagnosis"][0]["cause"] for e in oom_events() if "pytorch" in e] == ["allocator_limit"]'
# CHECK: holds:
