# Memory the cache keeps, not a leak: sixteen 256 MiB tensors, then half of
# them dropped; PyTorch keeps the freed segments reserved for reuse. The other
# half stays live until exit, held by the list.
import torch

tensors = [torch.empty(256 << 20, dtype=torch.uint8, device="cuda") for _ in range(16)]  # LINE:tensor
kept = tensors[::2]
del tensors
torch.cuda.synchronize()
print("reserved", torch.cuda.memory_reserved() >> 20, "MiB, allocated", torch.cuda.memory_allocated() >> 20, "MiB")
