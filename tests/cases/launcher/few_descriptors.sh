# REQUIRES: simulated
# Simulated only: a real libcudart cannot start with 10 descriptors.
# A process with few descriptors (10; root may raise the hard limit for the
# report, others have the soft one raised up to it), or none left, still
# writes its report: the leak fails the gate, seen, not lost.
# RUN(exit=9): %run --error-exitcode 9 -o %t/few/r.%p.json -- /bin/sh -c 'if [ $(id -u) = 0 ]; then ulimit -n 10; else ulimit -Sn 10; fi; exec %build/tests/e2e/launcher_edges linger 0'
# CHECK-NONE: Too many open files
# RUN: %expr %t/few 'len(reports) == 1 and summary["leaked_bytes"] == 1 << 20'
# CHECK: holds:
# RUN(exit=9): %run --error-exitcode 9 -o %t/none/r.%p.json -- %build/tests/e2e/launcher_edges no-descriptors
# CHECK-NONE: Too many open files
# RUN: %expr %t/none 'len(reports) == 1 and summary["leaked_bytes"] == 1 << 20'
# CHECK: holds:
