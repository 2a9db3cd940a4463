# A process that uses CUDA past cudaleak (cuInit found in the driver's own
# ELF symbol table) fails a gated run with 125; not gated, its status is kept.
# RUN(exit=125): %run --error-exitcode 23 -o %t/r.%p.json -- %build/tests/e2e/dlvsym_bypass
# CHECK-RE: \AcuInit: 0\n
# CHECK: none of its CUDA calls went through cudaleak
# RUN: %run -o %t/plain.%p.json -- %build/tests/e2e/dlvsym_bypass
# CHECK: cuInit: 0
