# PyTorch's out-of-memory is one story that names the user's line, with and
# without per-tensor stacks: tests/e2e/programs/fake_torch's caching
# allocator reserves 20 MiB segments with cudaMalloc (through c10's
# namespace, libfake_c10.so), retries once after freeing its cache, then
# calls the observers and raises. Told once, when PyTorch raised; the exit
# text names the same line for the tensors still alive. Without stacks the
# tensors are named by the segments their line reserved.
# --pytorch-stacks-at 0: no stacks at all without --pytorch-stacks (the
# watch has its own case, torch_stacks_at.sh).
# Simulated only: a device of a set size, fake_torch's allocator.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_torch
# LINES-OF: %root/tests/e2e/programs/python_torch_oom.py
# RUN: FAKE_C10=%build/tests/e2e/libfake_c10.so %run --simulated-gpu-memory 256MiB --pytorch-stacks false --pytorch-stacks-at 0 -o %t/segments/report.%p.%n.json -- %python %root/tests/e2e/programs/python_torch_oom.py > %t/segments.out
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# CHECK: out of memory: PyTorch could not allocate 20.0 MiB on device 0 in train_step (python_torch_oom.py:%line:keep)
# CHECK: 1. 241.0 MiB is held by live tensors: 240.0 MiB in 24 tensors in segments reserved by train_step (python_torch_oom.py:%line:keep)
# CHECK: 240.0 MiB in 24 tensors in segments reserved by train_step (python_torch_oom.py:%line:keep)
# RUN: %expr %t/segments \
# RUN:   'text("%t/segments.out") == "out of memory after 24 steps\n"' \
# RUN:   'len(reports) == 2 and len(reports[1]["oom_events"]) == 1 and "pytorch" in reports[1]["oom_events"][0]' \
# RUN:   '[(a["api"], a["request_bytes"]) for a in reports[1]["oom_events"][0]["attempts"]][0][0] == "cudaMalloc" and len(reports[1]["oom_events"][0]["attempts"]) == 2 and reports[1]["oom_events"][0]["attempts"][1]["request_bytes"] == 20 << 20' \
# RUN:   'reports[1]["oom_events"][0]["attempts"][0]["time_ns"] <= reports[1]["oom_events"][0]["attempts"][1]["time_ns"] <= reports[1]["oom_events"][0]["time_ns"]' \
# RUN:   'reports[1]["oom_events"][0]["diagnosis"][0]["cause"] == "live_tensors"' \
# RUN:   'reports[1]["oom_events"][0]["pytorch"]["live_tensors"][0].get("by_segment", False) is True'
# CHECK-COUNT(6): holds:
# RUN: FAKE_C10=%build/tests/e2e/libfake_c10.so %run --simulated-gpu-memory 256MiB --pytorch-stacks true --pytorch-stacks-at 0 -o %t/stacks/report.%p.%n.json -- %python %root/tests/e2e/programs/python_torch_oom.py > %t/stacks.out
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# CHECK: out of memory: PyTorch could not allocate 20.0 MiB on device 0 in train_step (python_torch_oom.py:%line:keep)
# CHECK: 1. 241.0 MiB is held by live tensors: 240.0 MiB in 24 tensors from train_step (python_torch_oom.py:%line:keep)
# CHECK: 240.0 MiB in 24 tensors from train_step (python_torch_oom.py:%line:keep)
# RUN: %expr %t/stacks \
# RUN:   'text("%t/stacks.out") == "out of memory after 24 steps\n"' \
# RUN:   'len(reports) == 2 and len(reports[1]["oom_events"]) == 1 and "pytorch" in reports[1]["oom_events"][0]' \
# RUN:   '[(a["api"], a["request_bytes"]) for a in reports[1]["oom_events"][0]["attempts"]][0][0] == "cudaMalloc" and len(reports[1]["oom_events"][0]["attempts"]) == 2 and reports[1]["oom_events"][0]["attempts"][1]["request_bytes"] == 20 << 20' \
# RUN:   'reports[1]["oom_events"][0]["attempts"][0]["time_ns"] <= reports[1]["oom_events"][0]["attempts"][1]["time_ns"] <= reports[1]["oom_events"][0]["time_ns"]' \
# RUN:   'reports[1]["oom_events"][0]["diagnosis"][0]["cause"] == "live_tensors"' \
# RUN:   'reports[1]["oom_events"][0]["pytorch"]["live_tensors"][0].get("by_segment", False) is False'
# CHECK-COUNT(6): holds:
