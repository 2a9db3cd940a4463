# Fragmentation (tests/gpu/python/scenario_fragmentation.py): 3 MiB tensors
# fill the device, 5 of every 6 are freed, and a request for half the
# device fails with the free memory scattered in segments the kept tensors
# pin. With per-tensor stacks and without (the default), PyTorch's failure
# at the big request reads as fragmentation first, naming the pinning line
# and expandable_segments; the failed cudaMalloc calls under PyTorch are
# not told apart, and each PyTorch failure is told once. (About 25 s.)
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_fragmentation.py
# RUN: %run --pytorch-stacks true -o %t/stacks/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_fragmentation.py > %t/stacks.txt 2>&1; s=$?; cat %t/stacks.txt; exit $s
# CHECK-NONE: out of memory: cudaMalloc
# RUN: %expr %t/stacks \
# RUN:   'len([e for e in oom_events() if "pytorch" in e and python_frame(e["stack"], "<module>", %line:big)]) == 1' \
# RUN:   'all(e["diagnosis"][0]["cause"] == "fragmentation" for e in oom_events() if "pytorch" in e and python_frame(e["stack"], "<module>", %line:big))' \
# RUN:   'all("fill (scenario_fragmentation.py:%line:fill)" in e["diagnosis"][0]["message"] and "expandable_segments:True" in e["diagnosis"][0]["message"] for e in oom_events() if "pytorch" in e and python_frame(e["stack"], "<module>", %line:big))' \
# RUN:   'text("%t/stacks.txt").count("out of memory: PyTorch") == len([e for e in oom_events() if "pytorch" in e])'
# CHECK-COUNT(4): holds:
# RUN: %run -o %t/default/r.%%p.%%n.json -- %python %root/tests/gpu/python/scenario_fragmentation.py
# RUN: %expr %t/default \
# RUN:   '[e["diagnosis"][0]["cause"] for e in oom_events() if "pytorch" in e and python_frame(e["stack"], "<module>", %line:big)] == ["fragmentation"]'
# CHECK: holds:
