# Three arrays, then the snapshot signal, then two more (fake_jax stands in
# for JAX): the snapshot's report must carry JAX's view of that moment. With
# "torch", PyTorch (fake_torch) is used beside it: both views come fresh
# through the one source the library calls.
import os
import signal
import sys
import time

import jax.numpy as jnp

if sys.argv[1:] == ["torch"]:
    import torch
    torch.cuda.init()
kept = [jnp.zeros((256, 1024)) for _ in range(3)]  # LINE:first
os.kill(os.getpid(), signal.SIGUSR1)
time.sleep(1.0)  # the snapshot is written by cudaleak's thread; the views' source needs the GIL
kept += [jnp.zeros((256, 1024)) for _ in range(2)]  # LINE:second
print("done")
