# JAX (tests/e2e/programs/fake_jax stands in for it) whose one line keeps an
# array every other step while another line's array comes and goes: JAX's
# live arrays by line, sampled every 100 ms (view_interval_ms), name the
# line that grew; the loop without the kept list grows nowhere.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax
# RUN: %run --growth-interval-ms 200 --view-interval-ms 100 -o %t/leaky.json -- %python %s leak
# CHECK: stepped
# CHECK-RE: device 0: [0-9.]+ [KM]iB of JAX's live arrays at keep_for_debugging \(jax_line_growth\.py:\d+\): grew steadily for \d+ s, \+[0-9.]+ [KM]iB \(\+[0-9.]+ [KM]iB per minute\), never fell
# RUN: %run --growth-interval-ms 200 --view-interval-ms 100 -o %t/clean.json -- %python %s
# CHECK: stepped
# CHECK-NONE: grew steadily
import sys
import time

import jax.numpy as jnp


def step():
    return jnp.zeros((64, 1024))  # freed when the step ends


def keep_for_debugging(kept):
    kept.append(jnp.zeros((16, 1024)))


kept = []
start = time.monotonic()
n = 0
while time.monotonic() - start < 2.5:
    step().delete()  # JAX frees an array nothing holds; fake_jax is told
    n += 1
    if sys.argv[1:] == ["leak"] and n % 2 == 0:
        keep_for_debugging(kept)
    time.sleep(0.01)
print("stepped %d times" % n)
