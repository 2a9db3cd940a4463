# CUDALEAK_LIMIT_MEMORY fails the GoogleTest test over its peak budget at the
# allocation that went over, with the sites; the others pass.
# (The test binary's own output: cudaleak's summary, on stderr, is set aside.)
# REQUIRES: built=gtest_cuda
# RUN(exit=1): %run -o %t/r.json -- %build/tests/e2e/gtest_cuda --gtest_filter=Budget.* 2> %t/err.txt
# CHECK: [       OK ] Budget.PeakWithinBudget
# CHECK: gtest_cuda.cpp:30: Failure
# CHECK: cudaleak: this test used 28.0 MiB of device memory at its peak on device 0, over its budget of 24.0 MiB (CUDALEAK_LIMIT_MEMORY)
# CHECK: 20.0 MiB of device memory more than at the start, created by cudaMalloc on device 0:
# CHECK: in Budget_PeakOverBudget_Test::TestBody()
# CHECK: [  FAILED  ] Budget.PeakOverBudget
# CHECK: 1 FAILED TEST
# CHECK-COUNT(1): [       OK ] Budget.LeakWithinBudget
# CHECK-NONE: testing::internal
