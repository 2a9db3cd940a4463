# torch.distributed.run under one `cudaleak run`: the launcher and both
# ranks (tests/gpu/python/scenario_torchrun.py, each keeping 16 tensors on
# the device, both on device 0): each rank's exit report has its rank and
# PyTorch's view, the 16 tensors at step's line. (About 15 s.)
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_torchrun.py
# RUN: %run --pytorch-stacks true -o %t/r.%%p.%%n.json -- %python -m torch.distributed.run --standalone --nproc_per_node 2 %root/tests/gpu/python/scenario_torchrun.py
# RUN: %expr %t \
# RUN:   'sorted(x["process"]["rank"] for x in reports if x["reason"] == "exit" and "pytorch" in x) == [0, 1]' \
# RUN:   'all(g[:1] and g[0]["count"] == 16 and python_frame(g[0]["stack"], "step", %line:keep) for g in [x["pytorch"]["devices"][0]["live_tensors"] for x in reports if "pytorch" in x])'
# CHECK-COUNT(2): holds:
