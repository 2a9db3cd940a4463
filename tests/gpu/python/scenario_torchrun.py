# Started by torch.distributed.run: each rank keeps its batches on the device.
import os

import torch

rank = int(os.environ["RANK"])
kept = []


def step(i):
    kept.append(torch.full((1 << 20,), float(rank), device="cuda"))  # LINE:keep


for i in range(16):
    step(i)
print("rank", rank, "kept", len(kept))
