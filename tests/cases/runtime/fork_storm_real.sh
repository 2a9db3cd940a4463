# 200 forks while 4 threads allocate on a real GPU never hang a child (the
# children make no CUDA call: a real driver forbids it after fork).
# REQUIRES: gpu
# RUN: %run -o %t/reports/r.%p.json -- %build/tests/e2e/fork_storm 200 host
# CHECK-RE: (?m)^forks 200 hung 0 failed 0$
