# torch.compile (Triton kernels load CUDA modules), then each step's output
# kept in a list until the device is full.
import torch


@torch.compile
def fused(x):
    return torch.relu(x) * 2 + 1


outputs = []


def step():
    x = torch.randn(8192, 8192, device="cuda")
    outputs.append(fused(x))  # LINE:keep


try:
    while True:
        step()
except torch.OutOfMemoryError:
    print("oom after", len(outputs), "steps")
