# DataLoader workers on a real GPU (forked, host only, pinned memory in the
# parent) raise no false alarm: no process is named as ended without its
# report.
# REQUIRES: gpu, torch
# RUN: %run --error-exitcode 23 -o %t/loader.%p.json -- %python %s; echo status $?
# CHECK: batches done
# CHECK-NONE: ended without its report
import torch
from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.arange(256, dtype=torch.float32))
model = torch.nn.Linear(1, 1).cuda()
total = 0.0
for (x,) in DataLoader(data, batch_size=16, num_workers=2, pin_memory=True):
    total += float(model(x.cuda(non_blocking=True).unsqueeze(1)).sum())
del model
print("batches done")
