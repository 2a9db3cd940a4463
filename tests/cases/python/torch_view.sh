# The PyTorch view comes through sitecustomize: tests/e2e/programs/fake_torch
# stands in for PyTorch, its snapshot one 2 MiB segment with one live 1 MiB
# block from train.py:7, told at exit as not leaks. A backend that refuses
# history recording and snapshots (cudaMallocAsync) leaves the program as
# it runs without cudaleak, and no view is claimed.
# Simulated only: fake_torch's allocator and snapshot.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_torch
# RUN: FAKE_TORCH_BACKEND=native %run --pytorch-stacks true -o %t/native/report.%p.%n.json -- %python %root/tests/e2e/programs/python_torch.py
# CHECK: trained
# CHECK: (not leaks, not gated)
# CHECK: 1.0 MiB in 1 tensor from train_step (train.py:7)
# RUN: %expr %t/native \
# RUN:   'len(reports) == 1 and r["pytorch"]["when"] == "exit" and len(r["pytorch"]["devices"]) == 1' \
# RUN:   'r["pytorch"]["devices"][0]["reserved"] == 2 << 20 and len(r["pytorch"]["devices"][0]["live_tensors"]) == 1' \
# RUN:   'r["pytorch"]["devices"][0]["live_tensors"][0]["stack"][0]["function"] == "train_step"'
# CHECK-COUNT(3): holds:
# RUN: FAKE_TORCH_BACKEND=cudaMallocAsync %run --pytorch-stacks true -o %t/async/report.%p.%n.json -- %python %root/tests/e2e/programs/python_torch.py
# CHECK: trained
# CHECK-NONE: Traceback
# CHECK-NONE: PyTorch view
# RUN: %expr %t/async 'len(reports) == 1 and "pytorch" not in r'
# CHECK: holds:
