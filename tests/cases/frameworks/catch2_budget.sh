# Catch2 (tests/e2e/frameworks/catch2_cuda.cpp): cudaleak_catch2.h fails the
# tests over their budgets (peak, CUDALEAK_LIMIT_MEMORY; alive,
# CUDALEAK_LIMIT_LEAKS) at their lines and passes the others; the stack is
# cut at the test case.
# (The test binary's own output: cudaleak's summary, on stderr, is set aside.)
# RUN(exit=2): %run -o %t/r.json -- %build/tests/e2e/catch2_cuda '*budget*' 2> %t/err.txt
# CHECK-COUNT(1): cudaleak: this test used 28.0 MiB of device memory at its peak on device 0, over its budget of 24.0 MiB (CUDALEAK_LIMIT_MEMORY)
# CHECK-COUNT(1): catch2_cuda.cpp:47: FAILED
# CHECK-COUNT(1): cudaleak: 1 CUDA resource (2097152 bytes) created by this test is still alive, over its budget of 1.0 MiB (CUDALEAK_LIMIT_LEAKS)
# CHECK-COUNT(1): catch2_cuda.cpp:55: FAILED
# CHECK: (the rest of the stack is in the report)
# CHECK: 4 | 2 passed | 2 failed
# CHECK-NONE: Catch::RunContext
