# A process killed before its report (a forked child that used CUDA dies of
# SIGKILL) is named by the launcher with its command line, and the gate is
# not green (125: what it leaked is unknown), in the text and in JUnit;
# without a gate the program's own status and the same warning. The program
# itself dying of SIGUSR2: the launcher names the signal and dies of it.
# RUN(exit=125): %run --error-exitcode 23 --junit %t/killed.xml -o %t/gated/r.%p.json -- %build/tests/e2e/exit_paths killed-child
# CHECK-RE: \Achild killed by signal 9\n
# CHECK: exit_paths killed-child
# CHECK: used CUDA and ended without its report
# RUN: ls %t/gated 2>/dev/null | wc -l; cat %t/killed.xml
# CHECK-RE: \A0\n
# CHECK: exit_paths killed-child)" tests="1" failures="0" skipped="0" errors="1"
# CHECK: <error message="used CUDA and ended without its report
# RUN: %run -o %t/plain/r.%p.json -- %build/tests/e2e/exit_paths killed-child
# CHECK: used CUDA and ended without its report
# RUN(signal=SIGUSR2): %run --error-exitcode 23 -o %t/usr2/r.%p.json -- %build/tests/e2e/exit_paths usr2
# CHECK: ended without its report: died of signal 12
