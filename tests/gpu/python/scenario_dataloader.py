# A DataLoader with forking workers while the main process trains on the GPU
# and keeps every batch on the device (a leak by Python reference).
import torch
from torch.utils.data import DataLoader, Dataset


class Numbers(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.full((1 << 18,), float(i))


kept = []


def train(loader):
    for batch in loader:
        kept.append(batch.cuda())  # LINE:keep


torch.cuda.init()
for epoch in range(3):
    train(DataLoader(Numbers(), batch_size=8, num_workers=4, multiprocessing_context="fork"))
print("epochs done, batches kept:", len(kept))
