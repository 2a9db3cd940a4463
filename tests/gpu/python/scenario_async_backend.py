# A step that keeps a tensor per step until the device is full (the
# accumulating leak of scenario_leak_in_list, without a model), under
# PyTorch's cudaMallocAsync backend: memory comes from CUDA's stream-ordered
# pool, and PyTorch keeps no segments of its own.
import os

os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "backend:cudaMallocAsync"
import torch

kept = []


def train_step(step):
    x = torch.randn(256 << 20, device="cuda")
    kept.append(x * 2)
    return x


try:
    for step in range(100000):
        train_step(step)
except torch.OutOfMemoryError:
    print("oom after", len(kept), "steps")
