# The launcher gates on every process of the tree: a shell that masks its
# child's status, and a background child that outlives the shell (waited
# for); with --trace-children false nothing is traced or gated.
# RUN(exit=23): %run --error-exitcode 23 -o %t/reports/r.%p.json -- /bin/sh -c '%build/samples/sample_loop_leak_shared >/dev/null 2>&1; exit 0'
# RUN(exit=23): %run --error-exitcode 23 -o %t/reports/r.%p.json -- /bin/sh -c '(sleep 0.3; %build/samples/sample_loop_leak_shared) >/dev/null 2>&1 & exit 0'
# RUN: %expr %t/reports 'len(reports) == 2'
# CHECK: holds:
# RUN: %run --error-exitcode 23 --trace-children false -o %t/off/r.%p.json -- /bin/sh -c '%build/samples/sample_loop_leak_shared >/dev/null 2>&1; exit 0'; ls %t/off 2>/dev/null | wc -l
# CHECK-RE: \A0\n
