# One process per GPU, an all-reduce through PyTorch and NCCL, then
# destroy_process_group: NCCL's buffers (VMM, host, pools) must be released.
# Run with: torchrun --nproc_per_node=2 nccl_allreduce.py
import os

import torch
import torch.distributed as dist

rank = int(os.environ["RANK"])
torch.cuda.set_device(rank)
dist.init_process_group("nccl")
t = torch.full((1 << 20,), float(rank + 1), device="cuda")
dist.all_reduce(t)
torch.cuda.synchronize()
value = t[0].item()
dist.destroy_process_group()
print(f"rank {rank}: {value}")
