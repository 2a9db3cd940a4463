# A program killed by a signal still dies of it under a gate.
# RUN(signal=SIGSEGV): %run --error-exitcode 23 -o %t/r.%p.json -- %build/tests/e2e/crash_after_leak
# CHECK: about to crash
