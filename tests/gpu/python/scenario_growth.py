# Keeps every step's loss (and its graph) alive, asking cudaleak for a report
# after each step, as a test harness or a long job would, then sends itself
# the snapshot signal. Each report must carry PyTorch's view of that moment,
# and the tensors kept from train_step must be seen growing across them.
import ctypes
import os
import signal
import time

import torch

model = torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 1024)).cuda()
losses = []
report = ctypes.CDLL(None).cudaleak_impl_report
report.argtypes = [ctypes.c_char_p]


def train_step(step):
    x = torch.randn(4096, 1024, device="cuda")  # LINE:input
    loss = model(x).square().mean()  # LINE:forward
    losses.append(loss)
    return loss


for step in range(6):
    train_step(step)
    torch.cuda.synchronize()
    report(b"step%d" % step)
train_step(6)
os.kill(os.getpid(), signal.SIGUSR1)
time.sleep(2)  # the snapshot is written by cudaleak's own thread
print("steps kept:", len(losses))
