# JAX beside PyTorch and CuPy in one process: PyTorch keeps 20 GiB of
# tensors, CuPy 10 GiB of arrays, and JAX (allocating on demand, as
# gpu-validate-jax.sh runs it: XLA_PYTHON_CLIENT_PREALLOCATE=false) fills
# the rest with 1 GiB arrays until the device is full.
import cupy
import torch

import jax
import jax.numpy as jnp

held_by_torch = torch.empty(20 << 30, dtype=torch.uint8, device="cuda")  # LINE:torch
held_by_cupy = cupy.empty(10 << 30, dtype=cupy.uint8)  # LINE:cupy
kept = []
try:
    while True:
        kept.append(jnp.ones((16384, 16384), jnp.float32))  # LINE:keep
        kept[-1].block_until_ready()
except Exception as e:
    print("kept %d arrays beside PyTorch and CuPy; %s" % (len(kept), str(e).splitlines()[0][:120]))
