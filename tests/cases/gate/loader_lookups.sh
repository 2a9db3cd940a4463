# The driver found through dlvsym or through a fetched real dlsym is tracked:
# seen, so gated as leaks (23), not as blind (125); 1 + 2 + 3 + 4 MiB, one
# through each way; the program's own behaviour unchanged.
# RUN(exit=23): %run --error-exitcode 23 -o %t/reports/r.%p.json -- %build/tests/e2e/loader_lookups > %t/out.txt; st=$?; cat %t/out.txt; exit $st
# CHECK-RE: \ARTLD_NEXT dlsym: allocated\nRTLD_DEFAULT dlsym: allocated\nlibc dlsym: allocated\nlibc dlvsym: allocated\nno versioned cuMemAlloc_v2\n
# RUN: %expr %t/reports 'len(reports) == 1 and summary["leaked_count"] == 4 and summary["leaked_bytes"] == 10 << 20'
# CHECK: holds:
# RUN: %run -o %t/plain.json -- %build/tests/e2e/loader_lookups > %t/plain.txt; cmp %t/out.txt %t/plain.txt && echo same
# CHECK: same
