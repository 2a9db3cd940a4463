# A clean FSDP2 job (torch.distributed.fsdp.fully_shard) over NCCL, two
# ranks on two GPUs, as fsdp_clean.py is for FSDP1: a few training steps,
# then the process group destroyed. What PyTorch, FSDP2 and NCCL keep for
# the process's life is no leak of the program's: the default gate passes
# on both ranks and the job.
# REQUIRES: gpus>=2, torch
# RUN: %run --error-exitcode 9 -o %t/job/rank.%%p.%%n.json -- %python -m torch.distributed.run --standalone --nproc_per_node 2 %s
# CHECK-COUNT(2): steps done
# CHECK-NONE: leak gate failed
# RUN: %expr %t/job \
# RUN:   'sorted(by_rank()) == [0, 1]' \
# RUN:   'all(x["summary"]["leaked_count"] == 0 for x in by_rank().values())'
# CHECK-COUNT(2): holds:
import os

import torch
import torch.distributed as dist
from torch.distributed.fsdp import fully_shard

rank, local = int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local)
dist.init_process_group("nccl", device_id=torch.device("cuda", local))
torch.manual_seed(0)
model = torch.nn.Sequential(*[torch.nn.Linear(1024, 1024) for _ in range(4)]).cuda()
for layer in model:
    fully_shard(layer)
fully_shard(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
for step in range(10):
    loss = model(torch.randn(256, 1024, device="cuda")).square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
torch.cuda.synchronize()
print(f"rank {rank}: steps done", flush=True)
dist.destroy_process_group()
