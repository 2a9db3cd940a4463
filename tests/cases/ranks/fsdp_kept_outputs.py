# An FSDP job over NCCL, two ranks on two GPUs, whose rank 1 keeps every
# step's output "for debugging" (32 MiB a step) until PyTorch raises
# out-of-memory inside FSDP's own code; torchrun then stops rank 0. What a
# user reads: rank 1's out-of-memory on its own device, said first; its
# one PyTorch story whose first cause is the live tensors made at the
# user's line (train_step's forward call, not FSDP's internals, not the
# caching allocator's segments as a leak); the job read as two ranks of
# torchrun, rank 1 first to run out, rank 0's holdings at that moment.
# (About 40 s.)
# REQUIRES: gpus>=2, torch
# RUN(exit=1): %run --pytorch-stacks true -o %t/job/rank.%%p.%%n.json -- %python -m torch.distributed.run --standalone --nproc_per_node 2 %s
# CHECK-RE: ==\d+==cudaleak: out of memory on rank 1: .* on device 1[ ]
# RUN: %expr %t/job \
# RUN:   'sorted(by_rank()) == [0, 1]' \
# RUN:   'len([e for e in by_rank()[1].get("oom_events", []) if "pytorch" in e]) == 1' \
# RUN:   '[e["diagnosis"][0]["cause"] for e in by_rank()[1]["oom_events"] if "pytorch" in e] == ["live_tensors"]' \
# RUN:   'all("fsdp_kept_outputs.py:%line:forward" in e["diagnosis"][0]["message"] for e in by_rank()[1]["oom_events"] if "pytorch" in e)' \
# RUN:   'not [d for e in by_rank()[1]["oom_events"] for d in e["diagnosis"] if d["cause"] == "accumulating_leak"]' \
# RUN:   'not by_rank()[0].get("oom_events")'
# CHECK-COUNT(6): holds:
# RUN: %report %t/job
# CHECK-DAG-RE: job: ranks 0,1 of 2 \(torchrun\) on host
# CHECK-DAG-RE: rank 1 \(pid \d+\) ran out of memory first
# CHECK-DAG: The other ranks at that moment: rank 0 on device 0 held
# CHECK-DAG-RE: train_step \(fsdp_kept_outputs\.py:%line:forward\)
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
