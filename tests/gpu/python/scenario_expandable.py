# scenario_leak_in_list under expandable segments: PyTorch maps its memory
# with cuMemCreate/cuMemMap instead of cudaMalloc.
import os

os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
import torch

model = torch.nn.Sequential(torch.nn.Linear(4096, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 4096)).cuda()
losses = []


def train_step(step):
    x = torch.randn(16384, 4096, device="cuda")
    loss = model(x).square().mean()  # LINE:forward
    losses.append(loss)  # the graph stays alive with it
    return loss


try:
    for step in range(100000):
        train_step(step)
except torch.OutOfMemoryError:
    print("oom after", len(losses), "steps")
