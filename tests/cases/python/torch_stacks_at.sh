# Per-tensor stacks start once PyTorch's reservation reaches
# pytorch_stacks_at of the device: 24 steps of 10 MiB, 0.1 s apart, on
# 256 MiB (tests/e2e/programs/fake_torch); half the device is reserved after
# about 13 steps, and the watch looks every 0.05 s here. Tensors made after
# the watch started carry their own stacks, the rest are named by their
# segments. PyTorch's first snapshot with stacks imports half of torch
# (seconds): it is taken on cudaleak's own thread once recording starts,
# not at the out-of-memory a user waits on.
# Simulated only: a device of a set size, fake_torch's allocator.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_torch
# ENV: STEP_SECONDS=0.1
# ENV: CUDALEAK_PYTORCH_STACKS_POLL=0.05
# ENV: FAKE_TORCH_SNAPSHOT_LOG=%t/snapshots.log
# RUN: FAKE_C10=%build/tests/e2e/libfake_c10.so %run --simulated-gpu-memory 256MiB --pytorch-stacks-at 50 -o %t/reports/report.%p.%n.json -- %python %root/tests/e2e/programs/python_torch_oom.py > %t/run.out
# CHECK: out of memory: PyTorch could not allocate
# RUN: %expr %t/reports \
# RUN:   'text("%t/run.out") == "out of memory after 24 steps\n"' \
# RUN:   'text("%t/snapshots.log").startswith("cudaleak-pytorch-warm recording=True\n")' \
# RUN:   'len(reports) == 2 and [d["device"] for d in reports[1]["pytorch"]["devices"]] == [0]' \
# RUN:   '1 <= sum(g["count"] for g in reports[1]["pytorch"]["devices"][0]["live_tensors"] if not g.get("by_segment", False) and g["stack"][:1] and "python_torch_oom.py" in g["stack"][0]["file"]) <= 12' \
# RUN:   'sum(g["count"] for g in reports[1]["pytorch"]["devices"][0]["live_tensors"] if not g.get("by_segment", False) and g["stack"][:1] and "python_torch_oom.py" in g["stack"][0]["file"]) + sum(g["count"] for g in reports[1]["pytorch"]["devices"][0]["live_tensors"] if g.get("by_segment", False)) == 24'
# CHECK-COUNT(5): holds:
