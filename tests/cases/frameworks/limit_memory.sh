# limit_memory: a run whose device memory peaks over its budget fails the
# gate and names the site; within it, the gate passes.
# RUN(exit=3): %run --limit-memory 65536 --error-exitcode 3 -o %t/a.json -- %build/samples/sample_clean_shared
# CHECK: cudaleak: device memory peaked at 256.0 KiB above the start on device 0, over the budget of 64.0 KiB (limit_memory) at
# CHECK: 256.0 KiB of device memory more than at the start, created by cudaMalloc on device 0:
# CHECK: in main
# RUN: %run --limit-memory 1048576 --error-exitcode 3 -o %t/b.json -- %build/samples/sample_clean_shared
# CHECK-NONE: over the budget
