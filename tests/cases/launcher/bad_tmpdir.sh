# A TMPDIR that is missing or a file is named in one line, and the run goes
# on: the gate runs, on the leak.
# RUN(exit=9): TMPDIR=%t/missing %run --error-exitcode 9 -o %t/r.%p.json -- %build/tests/e2e/launcher_edges linger 0
# CHECK-COUNT(1): TMPDIR=
# CHECK: cudaleak: TMPDIR=%t/missing does not exist
# RUN(exit=9): echo x > %t/file && TMPDIR=%t/file %run --error-exitcode 9 -o %t/r.%p.json -- %build/tests/e2e/launcher_edges linger 0
# CHECK-COUNT(1): TMPDIR=
# CHECK: cudaleak: TMPDIR=%t/file is not a directory
