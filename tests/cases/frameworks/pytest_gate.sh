# The plugin applies the run's gate: a suppression that names the leaking
# test (tests/e2e/frameworks/test_cuda_ctypes.py), or --fail-on naming
# another kind, passes both tests.
# REQUIRES: pytest
# ENV: PYTHONPATH=%root/interpose/python
# ENV: PYTHONDONTWRITEBYTECODE=1
# RUN: printf 'leak:test_keeps_a_buffer\n' > %t/tests.supp
# RUN: cd %root && %run --suppressions %t/tests.supp -o %t/suppressed/r.%p.json -- %python -m pytest -q -p pytest_cudaleak -p no:cacheprovider tests/e2e/frameworks/test_cuda_ctypes.py
# CHECK: 2 passed
# CHECK-NONE: failed
# RUN: cd %root && %run --fail-on pinned -o %t/pinned/r.%p.json -- %python -m pytest -q -p pytest_cudaleak -p no:cacheprovider tests/e2e/frameworks/test_cuda_ctypes.py
# CHECK: 2 passed
# CHECK-NONE: failed
