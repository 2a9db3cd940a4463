# The pytest plugin's per-test gate with PyTorch on a real GPU, installed
# from its wheel with pip, offline, into a folder of its own (the machine's
# python3 may be a virtual environment, whose packages a nested one would not
# see) and loaded by its entry point, with no -p: memory PyTorch keeps in its
# cache is not a test's leak; a raw driver allocation never freed fails its
# test, with its bytes, its Python line and its stack from the test.
# REQUIRES: gpu, torch, pytest
# RUN: %python -m pip install -q --no-index --no-deps --target %t/site %build/lib/cudaleak/python/pytest_cudaleak-*-py3-none-any.whl && echo installed
# CHECK: installed
# RUN(exit=1): PYTHONPATH=%t/site %run -o %t/pytest.%p.json -- %python -m pytest -q -p no:cacheprovider %root/tests/gpu/pytest/test_per_test_gate.py 2>&1
# CHECK-DAG: cudaleak: 1 CUDA resource (8388608 bytes) created by this test is still alive
# CHECK-DAG-RE: at .*test_per_test_gate\.py:25
# CHECK-DAG: [python] in test_raw_driver_allocation_leaks
# CHECK-DAG-RE: FAILED .*test_raw_driver_allocation_leaks
# CHECK-DAG: 1 failed, 2 passed
