# Leaks make the run exit with error_exitcode (the program's output flushed
# before the gate ends it); clean runs keep their status, and without a gate
# option a leaking run keeps the program's own.
# RUN(exit=23): %run --error-exitcode 23 -o %t/a.json -- %build/samples/sample_loop_leak_shared
# CHECK-RE: \A50 steps done\n
# CHECK: leak gate failed: 1 leak group (50 resources, 819200 bytes)
# RUN: %run --error-exitcode 23 -o %t/b.json -- %build/samples/sample_clean_shared
# CHECK: clean run finished
# RUN: %run -o %t/c.json -- %build/samples/sample_loop_leak_shared
# CHECK-NONE: leak gate failed
