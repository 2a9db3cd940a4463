# scenario_leak_in_list under expandable segments (tests/gpu/python/
# scenario_expandable.py): PyTorch maps its memory with cuMemCreate and
# cuMemMap; its one out-of-memory, told once, reads as live tensors at the
# script's line, the view says the segments are expandable, and no event
# calls PyTorch's mapped memory a leak. (About 13 s.)
# REQUIRES: gpu, torch
# RUN: %run --pytorch-stacks true -o %t/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_expandable.py
# CHECK-COUNT(1): out of memory:
# RUN: %expr %t \
# RUN:   '[e["diagnosis"][0]["cause"] for e in oom_events() if "pytorch" in e] == ["live_tensors"]' \
# RUN:   'all(e["pytorch"]["expandable"] and "scenario_leak_in_list.py:" in e["diagnosis"][0]["message"] for e in oom_events() if "pytorch" in e)' \
# RUN:   'not [e for e in oom_events() if e["diagnosis"] and e["diagnosis"][0]["cause"] == "accumulating_leak"]'
# CHECK-COUNT(3): holds:
