# GoogleTest (tests/e2e/frameworks/gtest_cuda.cpp): the listener fails
# exactly the leaking test at its line (the cudaMalloc, not the listener's
# header) with kind and stack, the stack stopping at the test's body
# (GoogleTest's runner is in the report). Built in a subdirectory, the binary
# names its source "../tests/...": named from the compiler's directory,
# SARIF places it in the repository.
# (The test binary's own output: cudaleak's summary, on stderr, is set aside.)
# REQUIRES: built=gtest_cuda
# RUN(exit=1): %run -o %t/r.json -- %build/tests/e2e/gtest_cuda --gtest_filter=Cuda.* 2> %t/err.txt
# CHECK: [       OK ] Cuda.ReleasesEverything
# CHECK: gtest_cuda.cpp:14: Failure
# CHECK: cudaleak: 1 CUDA resource (8192 bytes) created by this test is still alive
# CHECK: 8.0 KiB of device memory in 1 allocation never freed, created by cudaMalloc
# CHECK: in Cuda_ForgetsABuffer_Test::TestBody()
# CHECK: (the rest of the stack is in the report)
# CHECK: [  FAILED  ] Cuda.ForgetsABuffer
# CHECK-NONE: testing::internal
# RUN: %expr %t/r.json 'stack_has(group("device"), "Cuda_ForgetsABuffer_Test::TestBody")'
# CHECK: holds:
# RUN(exit=1): %run --sarif %t/gtest.sarif --source-root %root -o %t/s.json -- %build/tests/e2e/gtest_cuda --gtest_filter=Cuda.*
# RUN: %expr %t/gtest.sarif 'any(w["physicalLocation"]["artifactLocation"] == {"uri": "tests/e2e/frameworks/gtest_cuda.cpp", "uriBaseId": "SRCROOT"} for x in r["runs"][0]["results"] for w in x.get("locations", []))'
# CHECK: holds:
