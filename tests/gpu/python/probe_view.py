# Checks the PyTorch API cudaleak_torch relies on, without cudaleak: lazy arming
# creates no context, the observer fires, the snapshot carries Python frames.
import sys, json
import cudaleak_torch
captured = []
cudaleak_torch._native = lambda data, when: captured.append((when.decode(), json.loads(data))) or 0
cudaleak_torch.arm()
import torch
assert not torch.cuda.is_initialized(), "arming initialised CUDA"
def make(n):
    return torch.empty(n, dtype=torch.uint8, device="cuda")
keep = [make(3 << 20) for _ in range(4)]
torch.cuda.set_per_process_memory_fraction(0.02)
try:
    make(4 << 30)
except torch.OutOfMemoryError:
    print("oom raised")
assert captured and captured[-1][0] == "oom", captured
when, view = captured[-1]
print("oom info", view["oom"])
d = view["devices"][0]
print({k: v for k, v in d.items() if k not in ("segment_list", "live_tensors")})
print("top group", json.dumps(d["live_tensors"][0])[:600])
