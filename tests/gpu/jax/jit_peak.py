# A jitted step whose own temporaries do not fit: x @ x.T of an (n, 4096)
# float32 input needs an n*n*4-byte product beside it, n chosen from the
# device so that the product is 1.2 times XLA's whole pool (bytes_limit: 57.6
# GB of product on an H100 80 GB, 135 GB on an H200 140 GB); XLA fails at
# its launch and says which buffers its compiled code needs.
import math

import jax
import jax.numpy as jnp

limit = jax.devices()[0].memory_stats()["bytes_limit"]
n = int(math.sqrt(1.2 * limit / 4)) // 1024 * 1024


@jax.jit
def gram_loss(x):
    g = x @ x.T  # LINE:gram
    return jnp.sum(g * g)


x = jnp.ones((n, 4096), jnp.float32)  # LINE:input
try:
    print(float(gram_loss(x)))  # LINE:call
    print("it fit")
except Exception as e:
    print("step failed: %s" % str(e).splitlines()[0][:160])
