# A report that cannot be written (a file size limit stands for a full disk:
# the write fails with EFBIG, SIGXFSZ ignored; the program's stderr goes
# elsewhere, the limit holding for it too) fails the gate (125), JUnit and
# SARIF, and the previous run's report is not kept; a clean run says its
# invocation succeeded.
# RUN: %run -o %t/r.json -- %build/tests/e2e/launcher_edges linger 0 && test -f %t/r.json && echo previous kept
# CHECK: previous kept
# RUN(exit=125): %run -o %t/r.json --error-exitcode 9 --junit %t/j.xml --sarif %t/s.sarif -- /bin/sh -c "trap '' XFSZ; ulimit -f 1; exec %build/tests/e2e/launcher_edges linger 0 2>/dev/null"
# CHECK: removed %t/r.json, a previous run's report
# RUN: test -e %t/r.json || echo gone; cat %t/j.xml
# CHECK: gone
# CHECK: tests="1"
# CHECK: errors="1"
# CHECK: <error message="its report could not be written to %t/r.json
# RUN: cat %t/s.sarif
# CHECK: "executionSuccessful": false
# CHECK: "toolExecutionNotifications"
# CHECK-COUNT(1): its report could not be written
# RUN: %run --sarif %t/clean.sarif -o %t/clean.json -- %build/samples/sample_clean_shared && cat %t/clean.sarif
# CHECK: "executionSuccessful": true
