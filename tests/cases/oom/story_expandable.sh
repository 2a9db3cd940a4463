# scenario_leak_in_list under expandable_segments on a real GPU
# (tests/gpu/python/scenario_expandable.py): PyTorch maps its memory with
# cuMemCreate/cuMemMap, and the story is the same: one event, PyTorch's own,
# with attempts, told once, the live tensors in segments reserved by
# train_step first.
# REQUIRES: gpu, torch
# RUN: %run -o %t/r.%p.%n.json -- %python %root/tests/gpu/python/scenario_expandable.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# RUN: %expr %t \
# RUN:   '[(e["diagnosis"][0]["cause"], "pytorch" in e, len(e.get("attempts", [])) >= 1) for e in oom_events() if not e.get("recovered")] == [("live_tensors", True, True)]' \
# RUN:   'all("in segments reserved by train_step (scenario_leak_in_list.py:" in e["diagnosis"][0]["message"] and ("1. " + e["diagnosis"][0]["message"]) in text("%t/out.txt") for e in oom_events() if not e.get("recovered"))'
# CHECK-COUNT(2): holds:
