# The out-of-memory story of a list that keeps every step's loss (and with
# it the autograd graph), on a real GPU with default options
# (tests/gpu/python/scenario_leak_in_list.py): one event, PyTorch's own, the
# failed calls before it its attempts, told once; the first cause is the live
# tensors in segments reserved by train_step, the user's function, in the
# JSON and the text.
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_leak_in_list.py
# RUN: %run -o %t/r.%p.%n.json -- %python %root/tests/gpu/python/scenario_leak_in_list.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# RUN: %expr %t \
# RUN:   '[(e["diagnosis"][0]["cause"], "pytorch" in e, len(e.get("attempts", [])) >= 1) for e in oom_events() if not e.get("recovered")] == [("live_tensors", True, True)]' \
# RUN:   'all("in segments reserved by train_step (scenario_leak_in_list.py:" in e["diagnosis"][0]["message"] and ("1. " + e["diagnosis"][0]["message"]) in text("%t/out.txt") for e in oom_events() if not e.get("recovered"))'
# CHECK-COUNT(2): holds:
