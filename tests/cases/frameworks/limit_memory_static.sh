# The run's own memory budget (limit_memory, CTest's LIMIT_MEMORY) on a real
# GPU, with a sample built with nvcc's default static cudart: over the
# budget the run fails with the peak; within it, it passes.
# REQUIRES: gpu
# RUN(exit=3): %run --limit-memory 65536 --error-exitcode 3 -o %t/over.%p.json -- %build/samples/sample_clean
# CHECK-RE: cudaleak: device memory peaked at [0-9.]+ [KM]iB above the start on device 0, over the budget of 64\.0 KiB \(limit_memory\)
# RUN: %run --limit-memory 1048576 --error-exitcode 3 -o %t/within.%p.json -- %build/samples/sample_clean
# CHECK-NONE: over the budget
