# os._exit after a leaked tensor on a real GPU: no destructor runs, yet the
# exit report is written and the gate (--gate-live-tensors) fails on the
# tensor, named with this file's line.
# REQUIRES: gpu, torch
# RUN(exit=23): %run --error-exitcode 23 --gate-live-tensors -o %t/os_exit.%p.json -- %python %s
# CHECK-RE: torch_os_exit\.py:\d+
# RUN: %expr %t '[(x["reason"], x["gate"]["failing_tensor_groups"], x["gate"]["failing_bytes"]) for x in reports] == [("exit", 1, 8388608)]'
# CHECK: holds:
import os

import torch

kept = torch.empty(8 << 20, dtype=torch.uint8, device="cuda")
os._exit(0)
