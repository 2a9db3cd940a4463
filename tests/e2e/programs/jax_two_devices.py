# One process, two devices (fake_jax with FAKE_JAX_DEVICES=2 over two
# simulated GPUs): device 1 gets arrays kept in a list until its pool is
# full; device 0 keeps its parameters. The failure and each device's holders
# must name the device.
import jax
import jax.numpy as jnp

gpu0, gpu1 = jax.local_devices()
params = jnp.zeros((1024, 1024), device=gpu0)  # LINE:params
kept = []
try:
    while True:
        kept.append(jnp.zeros((4096, 1024), device=gpu1))  # LINE:keep
except jax.errors.JaxRuntimeError:
    print("device 1 full after", len(kept))
