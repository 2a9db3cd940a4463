# The GoogleTest listener applies the gate's suppressions, fail_on and
# min_bytes: each passes both tests.
# REQUIRES: built=gtest_cuda
# RUN: echo 'leak:Cuda_ForgetsABuffer_Test::TestBody' > %t/tests.supp && %run --suppressions %t/tests.supp -o %t/a.json -- %build/tests/e2e/gtest_cuda --gtest_filter=Cuda.*
# CHECK: [  PASSED  ] 2 tests.
# CHECK-NONE: still alive
# RUN: %run --fail-on stream -o %t/b.json -- %build/tests/e2e/gtest_cuda --gtest_filter=Cuda.*
# CHECK: [  PASSED  ] 2 tests.
# CHECK-NONE: still alive
# RUN: %run --min-bytes 16384 -o %t/c.json -- %build/tests/e2e/gtest_cuda --gtest_filter=Cuda.*
# CHECK: [  PASSED  ] 2 tests.
# CHECK-NONE: still alive
