# One rank of a job that torchrun starts with every rank on GPU 0
# (scripts/gpu-validate-torchrun.sh): each rank keeps 1 GiB of tensors, rank 0
# also leaks 1 MiB through the driver, and once every rank holds its memory
# the last rank asks for more than the GPU has left. Ranks meet through files
# in BARRIER_DIR, so that no process group is needed on one GPU.
import ctypes
import os
import time

import torch

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
barrier = os.environ["BARRIER_DIR"]
torch.cuda.set_device(0)
held = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")  # kept to the end


def leak_through_the_driver():
    pointer = ctypes.c_uint64()
    assert ctypes.CDLL("libcuda.so.1").cuMemAlloc_v2(ctypes.byref(pointer), 1 << 20) == 0


if rank == 0:
    leak_through_the_driver()
open(os.path.join(barrier, f"ready.{rank}"), "w").close()
while sum(name.startswith("ready.") for name in os.listdir(barrier)) < world:
    time.sleep(0.05)
if rank == world - 1:
    free, _ = torch.cuda.mem_get_info()
    try:
        torch.empty(free + (1 << 30), dtype=torch.uint8, device="cuda")
    except torch.OutOfMemoryError:
        print(f"rank {rank}: out of memory, as planned", flush=True)
    open(os.path.join(barrier, "done"), "w").close()
else:
    while not os.path.exists(os.path.join(barrier, "done")):
        time.sleep(0.05)
