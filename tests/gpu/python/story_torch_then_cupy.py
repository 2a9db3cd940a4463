# PyTorch keeps 70% of the device in live tensors, then CuPy in the same
# process asks for 40%: CuPy's pool retries and raises.
import cupy
import torch

kept = []


def keep_tensors():
    free, total = torch.cuda.mem_get_info()
    for _ in range(7):
        kept.append(torch.empty(int(total * 0.1), dtype=torch.uint8, device="cuda"))  # LINE:keep


keep_tensors()
free, total = torch.cuda.mem_get_info()
try:
    a = cupy.empty((int(total * 0.4),), dtype=cupy.uint8)  # LINE:cupy
    print("no oom")
except cupy.cuda.memory.OutOfMemoryError:
    print("oom as expected")
