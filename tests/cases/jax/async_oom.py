# A training loop that keeps every step's parameters and never reads them:
# under JAX's asynchronous dispatch (fake_jax with FAKE_JAX_ASYNC=1) the
# steps past the full pool fail without raising and leave arrays that hold
# no memory. The exit view must not count them as held.
# 40 steps of 16 MiB: 12 fit XLA's 192 MiB pool, the 28 others failed and
# are told apart, never more than the pool holds counted as held.
# Simulated only: fake_jax's pool on a device of a set size.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax:%root/tests/e2e/programs/fake_torch
# ENV: FAKE_JAX_ASYNC=1
# RUN: %run --simulated-gpu-memory 256MiB -o %t/reports/report.%p.%n.json -- %python %s > %t/run.out
# CHECK: JAX at exit on device 0: XLA's pool 192.0 MiB in use of its 192.0 MiB limit (peak 192.0 MiB); live arrays 192.0 MiB in 12 (and 28 that hold no memory)
# CHECK:     192.0 MiB in 12 arrays from <module> (async_oom.py:%line:update)
# CHECK:     28 arrays from <module> (async_oom.py:%line:update) hold no memory (448.0 MiB as their shapes count it
# CHECK: their computation failed (XLA ran out of memory) and nothing read them
# CHECK-NONE: 640.0 MiB
# RUN: %expr %t/reports \
# RUN:   'text("%t/run.out") == "kept 40 steps\n"' \
# RUN:   'len(reports) == 1 and len(r["jax"]["devices"]) == 1 and r["jax"]["devices"][0]["arrays"] == 12' \
# RUN:   'r["jax"]["devices"][0]["no_memory_arrays"] == 28 and r["jax"]["devices"][0]["no_memory_bytes"] == 448 << 20'
# CHECK-COUNT(3): holds:
import jax.numpy as jnp

history = []
for step in range(40):
    history.append(jnp.zeros((4096, 1024), dtype="float32"))  # LINE:update
print("kept", len(history), "steps")
