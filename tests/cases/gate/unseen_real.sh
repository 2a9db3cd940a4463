# Memory allocated past cudaleak on a real GPU (tests/e2e/programs/
# elf_alloc_bypass: cuMemAlloc_v2 found in the driver's ELF symbol table,
# after ordinary calls): a gated run that allocates 100 MiB or 1 GiB that way
# ends with status 125 naming the memory it cannot explain; allocating
# nothing or 16 MiB (within the slack) keeps the gate's own verdict and says
# nothing. (reading/no_unseen_alarm.sh checks that no other case's report
# carries this verdict.)
# REQUIRES: gpu
# RUN(exit=125): %run --error-exitcode 7 -o %t/unseen_100.json -- %build/tests/e2e/elf_alloc_bypass 100
# CHECK: more than the calls cudaleak saw can explain
# RUN(exit=125): %run --error-exitcode 7 -o %t/unseen_1024.json -- %build/tests/e2e/elf_alloc_bypass 1024
# CHECK: more than the calls cudaleak saw can explain
# RUN: %run --error-exitcode 7 -o %t/unseen_0.json -- %build/tests/e2e/elf_alloc_bypass 0
# CHECK-NONE: saw can explain
# RUN: %run --error-exitcode 7 -o %t/unseen_16.json -- %build/tests/e2e/elf_alloc_bypass 16
# CHECK-NONE: saw can explain
