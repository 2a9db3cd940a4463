# Tensors kept alive by stored exceptions: each traceback holds the frame that
# held a 32 MiB tensor.
import torch

errors = []


def work(i):
    scratch = torch.empty(32 << 20, dtype=torch.uint8, device="cuda")  # LINE:scratch
    raise ValueError("step %d failed" % i)


for i in range(10):
    try:
        work(i)
    except ValueError as e:
        errors.append(e)
torch.cuda.synchronize()
print("stored", len(errors), "errors")
