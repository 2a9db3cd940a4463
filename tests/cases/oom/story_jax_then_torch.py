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

# On a real GPU: one event, PyTorch's own, with its attempts, told once; the
# first cause is what XLA's BFC allocator holds, named with JAX's line and
# the setting that turns preallocation off.
# REQUIRES: gpu, torch, jax
# RUN: %run -o %t/r.%p.%n.json -- %python %s > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-COUNT(1): out of memory:
# CHECK-NONE: lines PyTorch did not record
# RUN: %expr %t \
# RUN:   '[(e["diagnosis"][0]["cause"], "pytorch" in e, len(e.get("attempts", [])) >= 1) for e in oom_events() if not e.get("recovered")] == [("held_by_cache", True, True)]' \
# RUN:   'all("warm_up_jax (story_jax_then_torch.py:%line:jax)" in e["diagnosis"][0]["message"] and ("1. " + e["diagnosis"][0]["message"]) in text("%t/out.txt") for e in oom_events() if not e.get("recovered"))' \
# RUN:   'all("XLA BFC allocator" in e["diagnosis"][0]["message"] and "XLA_PYTHON_CLIENT_PREALLOCATE=false" in e["diagnosis"][0]["message"] for e in oom_events() if not e.get("recovered"))'
# CHECK-COUNT(3): holds:
