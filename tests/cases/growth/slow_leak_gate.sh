# fail_on_growth fails the run past the rate (the leak itself, device
# memory, is not counted: fail_on pinned), a suppression hides the site, and
# a rate that is not one stops the launcher.
# REQUIRES: simulated
# RUN(exit=3): %run --growth-interval-ms 100 --fail-on-growth 10MiB/min --error-exitcode 3 --fail-on pinned -o %t/r.json -- %build/tests/e2e/slow_leak 4
# CHECK: grew steadily past fail_on_growth
# RUN: echo leak:leak_a_little > %t/growth.supp
# RUN: %run --growth-interval-ms 100 --fail-on-growth 10MiB/min --error-exitcode 3 --fail-on pinned --suppressions %t/growth.supp -o %t/supp.json -- %build/tests/e2e/slow_leak 4
# CHECK-NONE: past fail_on_growth
# RUN(exit=2): %run --fail-on-growth lots -o %t/bad.json -- %build/tests/e2e/slow_leak 1
# CHECK: --fail-on-growth
