# A jitted step whose own temporaries do not fit: x @ x.T of a (120000, 4096)
# float32 input needs a 57.6 GB product beside it; XLA fails at its launch
# and says which buffers its compiled code needs.
import jax
import jax.numpy as jnp


@jax.jit
def gram_loss(x):
    g = x @ x.T  # LINE:gram
    return jnp.sum(g * g)


x = jnp.ones((120000, 4096), jnp.float32)  # LINE:input
try:
    print(float(gram_loss(x)))
    print("it fit")
except Exception as e:
    print("step failed: %s" % str(e).splitlines()[0][:160])
