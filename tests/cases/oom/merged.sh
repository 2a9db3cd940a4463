# Read back merged with other processes (a sample's report beside it), an
# out-of-memory names its process.
# REQUIRES: simulated
# RUN(exit=1): %run --simulated-gpu-memory 512MiB -o %t/reports/report.%p.%n.json -- %build/tests/e2e/oom_scenarios leak 32
# RUN: %run -o %t/reports/report.%p.%n.json -- %build/samples/sample_loop_leak_shared
# RUN: %report %t/reports
# CHECK: processes merged): in oom_scenarios (pid
# CHECK: ): out of memory: cudaMalloc of
