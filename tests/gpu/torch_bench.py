# PyTorch training-loop step time: median over steps after warm-up.
# Prints "torch_step_ms MEDIAN" and "wall_s SECONDS".
import statistics
import sys
import time

import torch

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
t_start = time.perf_counter()
torch.manual_seed(0)
model = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.GELU()) for _ in range(8)]).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
x = torch.randn(256, 1024, device="cuda")
times = []
for step in range(steps):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    loss = model(x).square().mean()
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    torch.cuda.synchronize()
    times.append(time.perf_counter() - t0)
warm = times[steps // 5:]
print(f"torch_step_ms {statistics.median(warm) * 1e3:.3f}")
print(f"wall_s {time.perf_counter() - t_start:.2f}")
