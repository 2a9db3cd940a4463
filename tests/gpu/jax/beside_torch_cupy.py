# JAX beside PyTorch and CuPy in one process: PyTorch keeps a seventh of
# the device in tensors (20 GiB on an H200), CuPy a fourteenth, and JAX (allocating on demand, as
# tests/cases/jax/beside_torch_cupy.sh runs it: XLA_PYTHON_CLIENT_PREALLOCATE=false) fills
# the rest with 1 GiB arrays until the device is full.
import cupy
import torch

import jax
import jax.numpy as jnp

total = torch.cuda.mem_get_info()[1]  # the device's size: a seventh to PyTorch, a fourteenth to CuPy
held_by_torch = torch.empty(total // 7 >> 30 << 30, dtype=torch.uint8, device="cuda")  # LINE:torch
held_by_cupy = cupy.empty(total // 14 >> 30 << 30, dtype=cupy.uint8)  # LINE:cupy
kept = []
try:
    while True:
        kept.append(jnp.ones((16384, 16384), jnp.float32))  # LINE:keep
        kept[-1].block_until_ready()
except Exception as e:
    print("kept %d arrays beside PyTorch and CuPy; %s" % (len(kept), str(e).splitlines()[0][:120]))
