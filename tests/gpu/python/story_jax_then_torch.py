# JAX used first (it preallocates 75% of the device), then PyTorch in the same
# process asks for 40% of the device.
import jax.numpy as jnp
import torch


def warm_up_jax():
    return float(jnp.ones(1024).sum())  # LINE:jax


warm_up_jax()
free, total = torch.cuda.mem_get_info()
try:
    x = torch.empty(int(total * 0.4), dtype=torch.uint8, device="cuda")  # LINE:torch
    print("no oom")
except torch.OutOfMemoryError:
    print("oom as expected")
