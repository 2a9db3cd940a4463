# Reports written on a real GPU read back through the validating reader
# (tests/cases/tools/check_reading.py): the samples with nvcc's default
# static cudart, a crash (its report, and the raw capture plain LD_PRELOAD
# leaves) and an out-of-memory, then every report the cases before this one
# left in the run's output folder: `cudaleak report` accepts each; written
# again as JSON it keeps its groups and summary; a second pass is stable byte
# for byte; all of them merged, the merge reads back.
# REQUIRES: gpu
# RUN: for s in loop_leak exception_leak pinned_leak stream_event_leak driver_context_leak async_pool_leak clean; do %run -o %t/own/$s.%p.json -- %build/samples/sample_$s > /dev/null 2>&1; done; %run -o %t/own/crash.%p.json -- %build/tests/e2e/crash_after_leak > /dev/null 2>&1; CUDALEAK_OPTIONS=output=%t/own/capture.json %preload %build/tests/e2e/crash_after_leak > /dev/null 2>&1; %run -o %t/own/oom.%p.%n.json -- %build/tests/e2e/oom_scenarios leak 4096 > /dev/null 2>&1; ls %t/own | wc -l
# CHECK-RE: \A[1-9][0-9]*\n
# RUN: %python %root/tests/cases/tools/check_reading.py %cudaleak %t/read "$(realpath %t/../..)"
# CHECK-RE: reading: [1-9][0-9]* reports from the GPU runs read back, 0 wrong
