# One rank of a DDP job over NCCL, one GPU per rank
# (tests/cases/ranks/ddp_nccl.sh): three training steps, then rank 0 leaks
# 1 MiB through the driver, the last rank asks for more than its GPU has,
# and the process group is never destroyed (its communicators stay alive).
# After the steps each rank asks for a snapshot (SIGUSR1) while its NCCL
# communicator is alive: PyTorch aborts communicators at exit, so only a
# report written before then can show them.
import os
import signal
import time

import torch
import torch.distributed as dist
from rank_steps import ask_for_more_than_free, leak_through_the_driver

rank, world, local = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local)
dist.init_process_group("nccl", device_id=torch.device("cuda", local))  # LINE:init
model = torch.nn.parallel.DistributedDataParallel(torch.nn.Linear(1024, 1024).cuda(), device_ids=[local])
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(3):
    loss = model(torch.randn(64, 1024, device="cuda")).square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
torch.cuda.synchronize()
dist.barrier()
os.kill(os.getpid(), signal.SIGUSR1)
time.sleep(2)
if rank == 0:
    leak_through_the_driver()
dist.barrier()
if rank == world - 1:
    ask_for_more_than_free(rank)
dist.barrier()
print(f"rank {rank} done", flush=True)
