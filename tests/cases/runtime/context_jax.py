# The context cudaleak learns against the driver's answer (--check-context)
# in JAX on a real GPU (preallocation off): a matrix product. The same status
# alone and traced; no creation placed elsewhere than the driver says.
# REQUIRES: gpu, jax
# ENV: XLA_PYTHON_CLIENT_PREALLOCATE=false
# RUN: %root/tests/cases/tools/check_context.sh %t/jax %run --check-context --print-summary=true -o %t/jax.%p.json -- %python %s
# CHECK: jax: same status (
# CHECK-RE: jax: [0-9]+ creations placed, 0 differ from the driver
# CHECK-NONE: status differs
# CHECK-NONE: placed elsewhere
import jax.numpy as jnp

x = jnp.ones((1024, 1024))
print(float((x @ x).sum()))
