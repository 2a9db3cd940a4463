# REQUIRES: simulated
# Simulated only: fork_child uses CUDA in a forked child, which only the simulated driver allows.
# --trace-children false: the child that leaks 3 MiB is neither tracked nor
# reported (no "0 leaked" report); the gate fails on the parent's own leak.
# RUN(exit=23): %run --trace-children false --error-exitcode 23 -o %t/r.%p.%n.json -- %build/tests/e2e/fork_child
# CHECK-RE: \Achild exited 0\n
# RUN: %expr %t 'len(reports) == 1 and r["summary"]["leaked_bytes"] == 1 << 20'
# CHECK: holds:
