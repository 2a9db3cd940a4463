# Memory the cache keeps, not a leak: sixteen 256 MiB tensors, then half of
# them dropped; PyTorch keeps the freed segments reserved for reuse. The other
# half stays live until exit, held by the list. On a real GPU (with
# --pytorch-stacks true, as the HTML page's screenshots were made), the exit
# report's PyTorch view has at least 4 wholly free segments and the 8 live
# tensors.
# REQUIRES: gpu, torch
# RUN: %run --pytorch-stacks true -o %t/r.%n.json -- %python %s
# CHECK: reserved
# RUN: %expr %t \
# RUN:   'all(len([s for s in dev["segment_list"] if all(state == 0 for _, state in s[2])]) >= 4 and dev["allocated"] >= 8 * (256 << 20) for dev in [reports[-1]["pytorch"]["devices"][0]])'
# CHECK: holds:
import torch

tensors = [torch.empty(256 << 20, dtype=torch.uint8, device="cuda") for _ in range(16)]  # LINE:tensor
kept = tensors[::2]
del tensors
torch.cuda.synchronize()
print("reserved", torch.cuda.memory_reserved() >> 20, "MiB, allocated", torch.cuda.memory_allocated() >> 20, "MiB")

