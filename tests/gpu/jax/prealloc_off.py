# Preallocation off (set before jax is imported, as a program may): XLA's
# BFC allocator grows its pool by cuMemAlloc as arrays need it, so CUDA
# calls fail before XLA raises; 512 MiB arrays kept in a dict by step.
import os

os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"

import jax.numpy as jnp  # noqa: E402

outputs = {}
try:
    for step in range(100000):
        outputs[step] = jnp.zeros((8192, 16384), jnp.float32) + step  # LINE:keep
        outputs[step].block_until_ready()
except Exception as e:
    print("kept %d outputs; %s" % (len(outputs), str(e).splitlines()[0][:120]))
