# A list that keeps every step's loss, and with it the graph and
# activations (tests/gpu/python/scenario_leak_in_list.py), until PyTorch
# raises out-of-memory: one story, told once, whose first cause is the live
# tensors from train_step at the script's line, never the caching
# allocator's segments as a leak. (About 15 s on an H100.)
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_leak_in_list.py
# RUN: %run --pytorch-stacks true -o %t/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_leak_in_list.py
# CHECK-COUNT(1): out of memory:
# RUN: %expr %t \
# RUN:   'len([e for e in oom_events() if "pytorch" in e]) == 1' \
# RUN:   '[e["diagnosis"][0]["cause"] for e in oom_events() if "pytorch" in e] == ["live_tensors"]' \
# RUN:   'all("scenario_leak_in_list.py:" in e["diagnosis"][0]["message"] for e in oom_events() if "pytorch" in e)' \
# RUN:   'not [d for e in oom_events() if "pytorch" in e for d in e["diagnosis"] if d["cause"] == "accumulating_leak"]' \
# RUN:   'all(python_frame(e["stack"], "train_step", %line:forward) for e in oom_events() if "pytorch" in e)'
# CHECK-COUNT(5): holds:
