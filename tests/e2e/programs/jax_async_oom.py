# A training loop that keeps every step's parameters and never reads them:
# under JAX's asynchronous dispatch (fake_jax with FAKE_JAX_ASYNC=1) the
# steps past the full pool fail without raising and leave arrays that hold
# no memory. The exit view must not count them as held.
import jax.numpy as jnp

history = []
for step in range(40):
    history.append(jnp.zeros((4096, 1024), dtype="float32"))  # LINE:update
print("kept", len(history), "steps")
