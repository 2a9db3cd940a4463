# pytest --help lists the plugin's options (a group of its own) and its ini
# option; a size it cannot read is refused at once, before any test runs
# (pytest's usage error, status 4).
# REQUIRES: pytest
# ENV: PYTHONPATH=%root/interpose/python
# ENV: PYTHONDONTWRITEBYTECODE=1
# RUN: %python -m pytest -p pytest_cudaleak --help
# CHECK: cudaleak: CUDA leaks and device memory budgets
# CHECK: --cuda-limit-memory=SIZE
# CHECK: --cuda-limit-leaks=SIZE
# CHECK: --cudaleak-top=N
# CHECK: cuda_limit_memory (string):
# RUN(exit=4): cd %root && %run -o %t/r.%p.json -- %python -m pytest -q -p pytest_cudaleak -p no:cacheprovider --cuda-limit-memory lots tests/e2e/frameworks/test_cuda_budgets.py
# CHECK: cudaleak: 'lots' is not a size (e.g. 24 MB, 512 KiB, 1048576)
# CHECK-NONE: passed
