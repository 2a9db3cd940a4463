# Keeps every step's loss (and with it the autograd graph and activations) in
# a list until the device is full.
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
