# 40 forked children that make no CUDA call (two of them ending through
# exit()): only the parent reports, one summary, and no child is said to
# have used CUDA unseen.
# RUN: %run -o %t/r.%p.%n.json -- %build/tests/e2e/fork_storm 40 host
# CHECK-RE: \Aforks 40 hung 0 failed 0\n
# CHECK-COUNT(1): SUMMARY: cudaleak:
# CHECK-NONE: none of its CUDA calls went through cudaleak
# RUN: %expr %t 'len(reports) == 1'
# CHECK: holds:
