# A training step of a small MLP (optax's adam when installed, else plain
# SGD): the median step time over STEPS steps after warm-up, printed as
# "STEP_MS <median> <mean>".
import os
import statistics
import time

import jax
import jax.numpy as jnp

STEPS = int(os.environ.get("STEPS", "300"))
sizes = [1024, 4096, 4096, 4096, 1024]
key = jax.random.PRNGKey(0)
params = []
for a, b in zip(sizes[:-1], sizes[1:]):
    key, k = jax.random.split(key)
    params.append((jax.random.normal(k, (a, b)) * 0.01, jnp.zeros(b)))


def loss(params, x, y):
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return jnp.mean((x @ w + b - y) ** 2)


try:
    import optax
    opt = optax.adam(1e-3)
    state = opt.init(params)

    @jax.jit
    def step(params, state, x, y):
        l, g = jax.value_and_grad(loss)(params, x, y)
        updates, state = opt.update(g, state, params)
        return optax.apply_updates(params, updates), state, l
    which = "optax adam"
except ImportError:
    state = None

    @jax.jit
    def step(params, state, x, y):
        l, g = jax.value_and_grad(loss)(params, x, y)
        return jax.tree_util.tree_map(lambda p, d: p - 1e-3 * d, params, g), state, l
    which = "plain SGD"

x = jax.random.normal(key, (512, 1024))
y = jax.random.normal(key, (512, 1024))
for _ in range(20):
    params, state, l = step(params, state, x, y)
l.block_until_ready()
times = []
for _ in range(STEPS):
    t = time.perf_counter()
    params, state, l = step(params, state, x, y)
    l.block_until_ready()
    times.append((time.perf_counter() - t) * 1e3)
print("STEP_MS %.4f %.4f (%s, %d steps)" % (statistics.median(times), statistics.mean(times), which, STEPS))
