# CuPy's memory pools run the same under cudaleak on a real GPU: stdout and
# status alone and traced.
# REQUIRES: gpu, cupy
# RUN: %root/tests/cases/tools/plain_and_traced.sh %t/cupy_pools %run -o %t/cupy_pools.%p.json -- %python %root/tests/gpu/frameworks/cupy_pools.py
# CHECK: cupy_pools: same status (
# CHECK: cupy_pools: same stdout
# CHECK-NONE: differs
