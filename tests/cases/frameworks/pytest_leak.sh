# pytest under cudaleak with the plugin (-p pytest_cudaleak): it fails
# exactly the test that leaks (tests/e2e/frameworks/test_cuda_ctypes.py), at
# the test's own line (not the allocation helper's, line 9), and its stack
# stops at the test: pytest's and pluggy's frames are in the report, which
# names the leak. (pytest runs from the source tree, as a project's CI runs
# it; cudaleak's own summary on stderr is set aside.)
# REQUIRES: pytest
# ENV: PYTHONPATH=%root/interpose/python
# ENV: PYTHONDONTWRITEBYTECODE=1
# RUN(exit=1): cd %root && %run -o %t/reports/r.%p.json -- %python -m pytest -q -p pytest_cudaleak -p no:cacheprovider tests/e2e/frameworks/test_cuda_ctypes.py 2> %t/stderr.txt
# CHECK: test_keeps_a_buffer
# CHECK: cudaleak: 1 CUDA resource (1048576 bytes) created by this test is still alive
# CHECK-RE: \nat %root/tests/e2e/frameworks/test_cuda_ctypes\.py:18\n
# CHECK: 1.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc
# CHECK: [python] in test_keeps_a_buffer %root/tests/e2e/frameworks/test_cuda_ctypes.py:18
# CHECK: (the rest of the stack is in the report)
# CHECK: FAILED tests/e2e/frameworks/test_cuda_ctypes.py::test_keeps_a_buffer
# CHECK: 1 failed, 1 passed
# CHECK-NONE: pluggy
# CHECK-NONE: _pytest
# RUN: %expr %t/reports 'len(reports) == 1' 'group("device") is not None and group("device")["bytes"] == 1 << 20'
# CHECK-COUNT(2): holds:
