# A process that drops the preload (as bazel, sudo and some test harnesses
# do) and uses the GPU is not seen, never green: its command line named, the
# closing verdict 125, an error in JUnit, an unsuccessful run in SARIF; env -i
# (the program given just its libraries) the same. No gate asked: the
# program's own status, with the same line. --trace-children false leaves
# children without the preload on purpose: no escape; nor a command that
# drops the preload and uses no GPU.
# REQUIRES: simulated
# RUN(exit=125): %run --error-exitcode 9 --junit %t/j.xml --sarif %t/s.sarif -o %t/u/r.%p.json -- env -u LD_PRELOAD %build/tests/e2e/launcher_edges linger 500
# CHECK: launcher_edges linger 500
# CHECK: used the GPU without cudaleak: its environment has no LD_PRELOAD
# CHECK: exiting with status 125 (gate_error_exitcode)
# RUN: cat %t/j.xml %t/s.sarif
# CHECK: errors="1"
# CHECK: "executionSuccessful": false
# RUN(exit=125): %run --error-exitcode 9 -o %t/i/r.%p.json -- env -i LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/tests/e2e/launcher_edges linger 500
# CHECK: used the GPU without cudaleak
# RUN: %run -o %t/plain/r.%p.json -- env -u LD_PRELOAD %build/tests/e2e/launcher_edges linger 500
# CHECK: used the GPU without cudaleak
# RUN: %run --error-exitcode 9 --trace-children false -o %t/untraced/r.%p.json -- /bin/sh -c '%build/tests/e2e/launcher_edges linger 300'
# CHECK-NONE: without cudaleak
# RUN: %run --error-exitcode 9 -o %t/harmless/r.%p.json -- env -u LD_PRELOAD sleep 0.2
# CHECK-RE: \A\Z
