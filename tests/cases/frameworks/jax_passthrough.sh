# A small JAX program (preallocation off) runs the same under cudaleak on a
# real GPU: stdout and status alone and traced.
# REQUIRES: gpu, jax
# ENV: XLA_PYTHON_CLIENT_PREALLOCATE=false
# RUN: %root/tests/cases/tools/plain_and_traced.sh %t/jax_small %run -o %t/jax_small.%p.json -- %python %root/tests/gpu/frameworks/jax_small.py
# CHECK: jax_small: same status (
# CHECK: jax_small: same stdout
# CHECK-NONE: differs
