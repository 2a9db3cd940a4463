# Keeps every step's output in a list until the device is full, as a training
# loop that stores its losses does (tests/e2e/programs/fake_torch stands in
# for PyTorch), then catches PyTorch's out-of-memory.
import os
import time

import torch

torch.cuda.init()
kept = []


def train_step():
    kept.append(torch.empty(10 << 20))  # LINE:keep
    time.sleep(float(os.environ.get("STEP_SECONDS", "0")))  # paced: cudaleak's watch looks twice a second


try:
    while True:
        train_step()
except torch.OutOfMemoryError:
    print("out of memory after", len(kept), "steps")
