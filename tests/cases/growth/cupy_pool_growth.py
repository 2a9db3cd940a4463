# CuPy (tests/e2e/programs/fake_cupy stands in for it) keeping an array
# every other step: the default pool's bytes in use, sent every 100 ms
# (view_interval_ms), grow steadily, and so does the site of the pool's
# cudaMalloc at the program's line; without the kept list nothing grows.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_cupy
# RUN: %run --growth-interval-ms 200 --view-interval-ms 100 -o %t/leaky.json -- %python %s leak
# CHECK: stepped
# CHECK-RE: \d+ sites? and 1 line of the program grew steadily
# CHECK-RE: of CuPy's memory pool in use at cupy\.get_default_memory_pool\(\): grew steadily for \d+ s
# RUN: %run --growth-interval-ms 200 --view-interval-ms 100 -o %t/clean.json -- %python %s
# CHECK: stepped
# CHECK-NONE: grew steadily
import sys
import time

import cupy


def step():
    return cupy.empty(256 << 10)  # back to the pool's cache when the step ends


def keep_for_debugging(kept):
    kept.append(cupy.empty(64 << 10))


kept = []
start = time.monotonic()
n = 0
while time.monotonic() - start < 2.5:
    step()
    n += 1
    if sys.argv[1:] == ["leak"] and n % 2 == 0:
        keep_for_debugging(kept)
    time.sleep(0.01)
print("stepped %d times" % n)
