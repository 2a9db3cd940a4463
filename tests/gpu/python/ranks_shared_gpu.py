# One rank of a job that torchrun starts with every rank on GPU 0
# (tests/cases/ranks/torchrun_shared_gpu.sh): each rank keeps 1 GiB of tensors, rank 0
# also leaks 1 MiB through the driver, and once every rank holds its memory
# the last rank asks for more than the GPU has left. Ranks meet through files
# in BARRIER_DIR, so that no process group is needed on one GPU.
import os
import time

import torch
from rank_steps import ask_for_more_than_free, leak_through_the_driver

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
barrier = os.environ["BARRIER_DIR"]
torch.cuda.set_device(0)
held = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")  # kept to the end


if rank == 0:
    leak_through_the_driver()
open(os.path.join(barrier, f"ready.{rank}"), "w").close()
while sum(name.startswith("ready.") for name in os.listdir(barrier)) < world:
    time.sleep(0.05)
if rank == world - 1:
    ask_for_more_than_free(rank)
    open(os.path.join(barrier, "done"), "w").close()
else:
    while not os.path.exists(os.path.join(barrier, "done")):
        time.sleep(0.05)
