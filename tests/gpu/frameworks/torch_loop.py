# A small PyTorch training loop and an inference loop; the allocator mode comes
# from PYTORCH_CUDA_ALLOC_CONF (default, expandable_segments, cudaMallocAsync).
# With "leak" as argument, a tensor is also kept in a global list every step,
# and a raw cudaMalloc is made through ctypes as an extension would.
import ctypes
import sys

import torch

leak = len(sys.argv) > 1 and sys.argv[1] == "leak"
history = []
# Under cudaleak, a checkpoint per step lets it see the cache grow (cudaleak.h's API, through ctypes).
try:
    checkpoint = ctypes.CDLL(None).cudaleak_impl_checkpoint
    checkpoint.argtypes = [ctypes.c_char_p]
except AttributeError:
    checkpoint = None
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 16)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
x = torch.randn(128, 256, device="cuda")
y = torch.randn(128, 16, device="cuda")
for step in range(20):
    loss = torch.nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if leak:
        if checkpoint:
            checkpoint(b"step")
        history.append(torch.empty(4 << 20, dtype=torch.uint8, device="cuda"))
with torch.no_grad():
    out = sum(model(torch.randn(64, 256, device="cuda")).sum().item() for _ in range(10))
if leak:
    cudart = ctypes.CDLL("libcudart.so.13")
    raw = ctypes.c_void_p()
    cudart.cudaMalloc(ctypes.byref(raw), ctypes.c_size_t(3 << 20))  # the extension's buffer, never freed
torch.cuda.synchronize()
print(f"final loss {loss.item():.4f}, inference {out:.2f}")
