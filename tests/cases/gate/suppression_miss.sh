# A suppression rule for another kind or api does not match: the gate fails.
# RUN: printf 'leak:process_batch kind:pinned\nleak:process_batch api:cudaMallocHost\n' > %t/miss.supp
# RUN(exit=23): %run --error-exitcode 23 --suppressions %t/miss.supp -o %t/r.json -- %build/samples/sample_exception_leak_shared
# CHECK: leak gate failed
