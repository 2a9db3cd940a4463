# A bool flag alone means true and takes =value (Valgrind's
# --gen-suppressions=all too): the leaks are in main, so the rule names the
# API, printed once for both groups; --print-summary=false prints none.
# RUN: %run --gen-suppressions -o %t/a.json -- %build/samples/sample_pinned_leak_shared
# CHECK-COUNT(1): leak:main kind:pinned api:cudaHostAlloc
# RUN: %run --gen-suppressions=all -o %t/v.json -- %build/samples/sample_pinned_leak_shared
# CHECK: leak:main kind:pinned api:cudaHostAlloc
# RUN: %run --print-summary=false -o %t/b.json -- %build/samples/sample_pinned_leak_shared
# CHECK-NONE: SUMMARY
