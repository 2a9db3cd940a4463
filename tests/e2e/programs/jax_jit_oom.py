# A jitted step whose own temporaries (FAKE_JAX_JIT_TEMP bytes) do not fit
# in XLA's pool beside its parameters; the failure is caught.
import jax
import jax.numpy as jnp


def step(w, x):
    return w  # LINE:step


params = jnp.zeros((1024, 1024), dtype="float32")  # LINE:params
batch = jnp.zeros((256, 1024), dtype="float32")
try:
    jax.jit(step)(params, batch)
except jax.errors.JaxRuntimeError as e:
    print("step failed:", str(e).splitlines()[0])
