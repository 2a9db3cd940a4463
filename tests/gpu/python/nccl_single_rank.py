# One process, one rank, a process group over NCCL on GPU 0: its
# communicators are made at the first collective (or at init with a device
# id), and with `keep` the group is never destroyed, so they stay alive.
# With `snapshot`, the process asks for a snapshot report (SIGUSR1) while
# the communicators are alive.
# Usage: python3 nccl_single_rank.py keep|destroy [eager] [split] [snapshot]
import os
import signal
import sys
import time

import torch
import torch.distributed as dist

keep = sys.argv[1] == "keep"
eager = "eager" in sys.argv[2:]
split = "split" in sys.argv[2:]
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ.setdefault("MASTER_PORT", "29531")
torch.cuda.set_device(0)
dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda", 0) if eager else None)  # LINE:init
t = torch.ones(1 << 20, device="cuda")
dist.all_reduce(t)
if split:
    group = dist.new_group([0])  # LINE:split
    dist.all_reduce(t, group=group)
torch.cuda.synchronize()
if "snapshot" in sys.argv[2:]:
    os.kill(os.getpid(), signal.SIGUSR1)
    time.sleep(2)
if not keep:
    dist.destroy_process_group()
print("nccl_single_rank done", flush=True)
