# A job of more ranks than GPUs (8 processes on the machine's GPUs, over
# gloo) for the folded job view (tests/cases/ranks/job_view_gloo.sh): every
# rank holds its weights and steps in lockstep; rank 3 keeps each step's
# activations (it grows while the others stay flat) and leaks 64 MiB through
# the driver, a leak group no other rank has; ranks 1, 5 and 7 then ask for
# more than their GPU has left, at one line, and torchrun ends the others.
import os
import sys
import time

import torch
import torch.distributed as dist

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rank_steps import leak_through_the_driver  # noqa: E402

rank, local = int(os.environ["RANK"]), int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local % torch.cuda.device_count())
dist.init_process_group("gloo")
weights = torch.ones(64 << 20, dtype=torch.float32, device="cuda")  # 256 MiB
kept = []
for step in range(8):
    activations = weights * step  # 256 MiB, freed each step but on rank 3
    if rank == 3:
        kept.append(activations)
    total = torch.tensor([float(activations[:16].sum().item())])
    dist.all_reduce(total)
    time.sleep(0.2)
if rank == 3:
    leak_through_the_driver(64 << 20)
dist.barrier()
if rank in (1, 5, 7):
    free, _ = torch.cuda.mem_get_info()
    torch.empty(free + (1 << 30), dtype=torch.uint8, device="cuda")  # out of memory: the job ends here  # LINE:oom
dist.barrier()  # the others wait here until torchrun ends them
time.sleep(120)
