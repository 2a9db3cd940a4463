# An FSDP job over NCCL, two ranks on two GPUs, whose rank 1 keeps every
# step's output "for debugging" (32 MiB a step) until PyTorch refuses a
# request under the rank's memory fraction, inside FSDP's or autograd's
# code; torchrun then stops rank 0. What a user reads: rank 1's
# out-of-memory on its own device, said first, placed at the program's line
# or in the backward pass by its node (never a template of PyTorch's
# callback); its one story: the fraction first (the device had room), then
# the live tensors made at train_step's forward call; NCCL's buffers, made
# at start-up, no cause and never a leak that grows; the job read as two
# torchrun ranks, rank 1 first to run out, rank 0's holdings at that moment.
# (About 20 s on 2 x H200.)
# REQUIRES: gpus>=2, torch
# RUN(exit=1): %run --pytorch-stacks true -o %t/job/rank.%%p.%%n.json -- %python -m torch.distributed.run --standalone --nproc_per_node 2 %s
# CHECK-RE: ==\d+==cudaleak: out of memory on rank 1: PyTorch could not allocate [0-9.]+ [KMG]iB on device 1 in (the backward pass \(\w+ on autograd's thread\)|train_step \(fsdp_kept_outputs\.py:\d+\)) \(free
# CHECK: 1. the device has
# CHECK: under a limit the program set (torch.cuda.set_per_process_memory_fraction)
# CHECK-RE: 2\. [0-9.]+ GiB is held by live tensors: [0-9.]+ GiB in \d+ tensors from train_step \(fsdp_kept_outputs\.py:%line:forward\)
# CHECK-NONE: _Function_handler
# CHECK-NONE: it grows until the device is full
# RUN: %expr %t/job \
# RUN:   'sorted(by_rank()) == [0, 1]' \
# RUN:   'len([e for e in by_rank()[1].get("oom_events", []) if "pytorch" in e]) == 1' \
# RUN:   '[[d["cause"] for d in e["diagnosis"]] for e in by_rank()[1]["oom_events"] if "pytorch" in e] == [["allocator_limit", "live_tensors"]]' \
# RUN:   'not by_rank()[0].get("oom_events")'
# CHECK-COUNT(4): holds:
# RUN: %report %t/job
# CHECK-DAG-RE: job: ranks 0,1 of 2 \(torchrun\) on host
# CHECK-DAG-RE: rank 1 \(pid \d+\) ran out of memory first
# CHECK-DAG: The other ranks at that moment: rank 0 on device 0 held
# CHECK-DAG-RE: [0-9.]+ GiB in \d+ tensors from train_step \(fsdp_kept_outputs\.py:%line:forward\)
import os

import torch
import torch.distributed as dist
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

rank, local = int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local)
dist.init_process_group("nccl", device_id=torch.device("cuda", local))
torch.manual_seed(0)
layers = [torch.nn.Linear(2048, 2048) for _ in range(4)]
model = FSDP(torch.nn.Sequential(*layers).cuda(), device_id=local, use_orig_params=True)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
if rank == 1:  # a smaller GPU, so that the leak fills it in seconds
    torch.cuda.set_per_process_memory_fraction(3 * 2**30 / torch.cuda.get_device_properties(local).total_memory)
kept_for_debugging = []


def train_step(step):
    x = torch.randn(4096, 2048, device="cuda")  # 32 MiB
    out = model(x)  # LINE:forward
    loss = out.square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if rank == 1:
        kept_for_debugging.append(out.detach())  # LINE:kept
    return loss.item()


for step in range(400):
    train_step(step)
dist.barrier()
print(f"rank {rank} done", flush=True)
dist.destroy_process_group()
