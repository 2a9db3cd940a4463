# torch.distributed.run with 2 processes on one real GPU
# (tests/gpu/python/scenario_torchrun.py, each rank keeping its batches):
# each rank's exit report carries PyTorch's view, and each names step's line
# for its tensors.
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_torchrun.py
# RUN: %run -o %t/r.%p.%n.json -- %python -m torch.distributed.run --standalone --nproc_per_node 2 %root/tests/gpu/python/scenario_torchrun.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK: in segments reserved by step (scenario_torchrun.py:%line:keep)
# RUN: %expr %t \
# RUN:   'text("%t/out.txt").count("in segments reserved by step (scenario_torchrun.py:%line:keep)") >= 2' \
# RUN:   'sorted(x["process"]["rank"] for x in reports if x["reason"] == "exit" and "pytorch" in x) == [0, 1]'
# CHECK-COUNT(2): holds:
