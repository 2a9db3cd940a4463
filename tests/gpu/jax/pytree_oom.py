# A training loop that keeps every step's parameters (a pytree of a small
# MLP, 256 MiB a step) in a history list until the device is full; any
# device size (the loop runs until XLA's pool is full).
import sys

import jax
import jax.numpy as jnp


def init(key):
    sizes = [(4096, 4096)] * 4
    keys = jax.random.split(key, len(sizes))
    return {"layer%d" % i: {"w": jax.random.normal(k, s, jnp.float32), "b": jnp.zeros(s[1], jnp.float32)}
            for i, (k, s) in enumerate(zip(keys, sizes))}


@jax.jit
def update(params):
    return jax.tree_util.tree_map(lambda p: p * 0.999 + 0.001, params)


params = init(jax.random.PRNGKey(0))
history = []
try:
    for step in range(100000):
        params = update(params)  # LINE:update
        history.append(params)  # LINE:history
        # As a training loop that reads its loss: each step synchronizes,
        # so the step that runs out of memory raises there ("nosync": never,
        # and the failed steps leave arrays that hold no memory).
        if sys.argv[1:] != ["nosync"]:
            params["layer0"]["b"].block_until_ready()  # LINE:sync
except Exception as e:
    print("kept %d steps of params; %s" % (len(history), str(e).splitlines()[0][:120]))
