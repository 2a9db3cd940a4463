# Crash reports can be turned off: the program still dies of its signal, and no report is written.
# RUN(signal=SIGSEGV): %run --crash-report false -o %t/r.%p.%n.json -- %build/tests/e2e/crash_after_leak
# CHECK: about to crash
# RUN: ls %t
# CHECK-RE: \Alog.txt\n\Z
