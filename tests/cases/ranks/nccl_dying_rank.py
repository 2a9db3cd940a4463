# Two ranks over NCCL (torchrun --nproc-per-node 2, one GPU each): both run a
# few all-reduces, so NCCL's proxy threads and collectives map the
# communicators' buffers; then rank 1 fills its GPU until PyTorch's
# out-of-memory error ends it, and torchrun ends rank 0 (SIGTERM) while its
# communicator is alive. Each rank's report must tell NCCL's memory under
# its communicator, never as leaks of their own.
# REQUIRES: gpus>=2, torch
# RUN(exit=1): %run -o %t/rank.%p.%n.json -- torchrun --nproc-per-node 2 --master-port 29611 %s
# CHECK: out of memory on rank 1
# CHECK: fill_device (nccl_dying_rank.py:
# RUN: %python %root/tests/cases/tools/library_strays.py %t/rank.*.json
# CHECK: strays: 0
# RUN: for f in %t/rank.*.json; do %report "$f"; done
# CHECK-RE: NCCL communicators? never destroyed .*holding
import os
import time

import torch
import torch.distributed as dist

rank = int(os.environ["RANK"])
torch.cuda.set_device(rank)
dist.init_process_group("nccl", device_id=torch.device("cuda", rank))
t = torch.ones(1 << 22, device="cuda")
for _ in range(5):
    dist.all_reduce(t)
torch.cuda.synchronize()
kept = []


def fill_device():
    while True:
        kept.append(torch.empty(1 << 30, dtype=torch.uint8, device="cuda"))  # LINE:fill


if rank == 1:
    fill_device()
time.sleep(120)  # torchrun ends this rank once rank 1 has failed
