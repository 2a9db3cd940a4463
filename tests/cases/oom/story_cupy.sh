# CuPy arrays kept in a list until a real GPU is full
# (tests/gpu/python/scenario_cupy.py): one out-of-memory event (not
# PyTorch's), CuPy's retries its attempts, told once; the first cause is
# what CuPy's pool holds, naming the line that makes the arrays.
# REQUIRES: gpu, cupy
# LINES-OF: %root/tests/gpu/python/scenario_cupy.py
# RUN: %run -o %t/r.%p.%n.json -- %python %root/tests/gpu/python/scenario_cupy.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# RUN: %expr %t \
# RUN:   '[(e["diagnosis"][0]["cause"], "pytorch" in e, len(e.get("attempts", [])) >= 1) for e in oom_events() if not e.get("recovered")] == [("held_by_cache", False, True)]' \
# RUN:   'all("make_batch (scenario_cupy.py:%line:alloc)" in e["diagnosis"][0]["message"] and ("1. " + e["diagnosis"][0]["message"]) in text("%t/out.txt") for e in oom_events() if not e.get("recovered"))'
# CHECK-COUNT(2): holds:
