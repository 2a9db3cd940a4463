# Fills the device with 3 MiB tensors, frees 5 of every 6, then asks for one
# block larger than any free piece: PyTorch's cache is fragmented.
import torch


def fill():
    kept, all_ = [], []
    try:
        while True:
            all_.append(torch.empty(3 << 20, dtype=torch.uint8, device="cuda"))  # LINE:fill
    except torch.OutOfMemoryError:
        pass
    for i, t in enumerate(all_):
        if i % 6 == 0:
            kept.append(t)
    return kept


kept = fill()
free, total = torch.cuda.mem_get_info()
try:
    big = torch.empty(int(total * 0.5), dtype=torch.uint8, device="cuda")  # LINE:big
    print("no oom")
except torch.OutOfMemoryError:
    print("oom as expected")
