# An unreported process (quick_exit) is told by the status it really ended
# with, not as a SIGKILL; with a gate, 125.
# RUN(exit=127): %run -o %t/a/r.%p.json -- %build/tests/e2e/launcher_edges quick-exit 127
# CHECK: ended without its report: exited with status 127 before writing its report
# CHECK-NONE: SIGKILL
# RUN(exit=125): %run --error-exitcode 9 -o %t/b/r.%p.json -- %build/tests/e2e/launcher_edges quick-exit 4
# CHECK: exited with status 4 before writing its report
# CHECK: exiting with status 125 (gate_error_exitcode)
