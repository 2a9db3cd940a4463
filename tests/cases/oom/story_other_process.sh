# Another process holds most of the device on a real GPU
# (tests/gpu/python/scenario_other_process.py): one out-of-memory event,
# PyTorch's own, told once; the first cause is the other process, named by
# its pid.
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_other_process.py
# RUN: %run -o %t/r.%p.%n.json -- %python %root/tests/gpu/python/scenario_other_process.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# RUN: %expr %t \
# RUN:   '[(e["diagnosis"][0]["cause"], "pytorch" in e) for e in oom_events() if not e.get("recovered")] == [("other_processes", True)]' \
# RUN:   'all("pid " in e["diagnosis"][0]["message"] and ("1. " + e["diagnosis"][0]["message"]) in text("%t/out.txt") for e in oom_events() if not e.get("recovered"))'
# CHECK-COUNT(2): holds:
