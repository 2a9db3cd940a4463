# Memory allocated past cudaleak (cuMemAlloc_v2 found in the driver's ELF
# symbol table) by a process whose other calls it saw fails a gated run
# (125), in the text, the report and JUnit (an error, never a passing "no
# CUDA resources leaked"). Nothing past cudaleak, or less than the slack:
# the verdict is the gate's own; not gated, the status is kept.
# REQUIRES: simulated
# RUN(exit=125): %run --error-exitcode 23 -o %t/reports/r.%p.json -- %build/tests/e2e/elf_alloc_bypass 100
# CHECK-RE: \Aallocated 100 MiB unseen\n
# CHECK: holds about 100.0 MiB more than the calls cudaleak saw can explain
# RUN: %expr %t/reports 'len(reports) == 1 and "did not see" in r["gate"]["error"]'
# CHECK: holds:
# RUN(exit=125): %run --error-exitcode 9 --junit %t/j.xml -o %t/junit/r.%p.json -- %build/tests/e2e/elf_alloc_bypass 100
# RUN: cat %t/j.xml
# CHECK: <error message="the leak gate cannot be evaluated: device 0 holds about 100.0 MiB
# CHECK-NONE: no CUDA resources leaked
# RUN: %run --error-exitcode 23 -o %t/clean/r.%p.json -- %build/tests/e2e/elf_alloc_bypass 0
# CHECK-NONE: leak gate
# RUN: %run --error-exitcode 23 -o %t/clean/r.%p.json -- %build/tests/e2e/elf_alloc_bypass 16
# CHECK-NONE: leak gate
# RUN: %run -o %t/clean/r.%p.json -- %build/tests/e2e/elf_alloc_bypass 100
# CHECK: allocated 100 MiB unseen
# A per-process NVML figure past the device's whole memory (a counter that
# wrapped 2 MiB below 0; all ones would be NVML's "not available") says
# nothing about unseen calls: never reported, the
# gate's own verdict kept, the reason given with --verbose.
# RUN: CUDALEAK_SIM_NVML_PROCESS_BYTES=18446744073707454464 %run --error-exitcode 23 --verbose true -o %t/wrapped/r.%p.json -- %build/tests/e2e/elf_alloc_bypass 100
# CHECK: memory past the seen calls not checked: NVML counts 16.0 EiB for this process, more than the device's 16.0 GiB
# CHECK-NONE: more than the calls cudaleak saw can explain
# CHECK-NONE: leak gate
