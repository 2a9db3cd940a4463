# PyTorch refuses an allocation itself: a per-process memory fraction.
import torch

torch.cuda.set_per_process_memory_fraction(0.02)
keep = torch.empty(64 << 20, dtype=torch.uint8, device="cuda")
try:
    torch.empty(4 << 30, dtype=torch.uint8, device="cuda")  # LINE:request
except torch.OutOfMemoryError:
    print("oom as expected")
