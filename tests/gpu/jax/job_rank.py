# One rank of a JAX job (RANK, LOCAL_RANK and WORLD_SIZE from the environment,
# as a launcher sets them; every rank on the same device): keeps 4 arrays of
# 256 MiB until it exits, rank 2 keeps 32 (8x the others'), so that the job
# view folds the ranks' arrays by line and names rank 2 first.
import os

import jax.numpy as jnp

rank = int(os.environ.get("RANK", "0"))
kept = []


def keep(n):
    for _ in range(n):
        kept.append(jnp.ones((8192, 8192), jnp.float32))  # LINE:keep


keep(32 if rank == 2 else 4)
kept[-1].block_until_ready()
print("rank %d kept %d arrays" % (rank, len(kept)))
