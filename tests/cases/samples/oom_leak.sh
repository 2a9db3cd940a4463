# samples/oom_leak: the out-of-memory (a 400 MiB device) is blamed on the
# activations kept from earlier steps; the program's own status when its
# allocation fails; the out-of-memory report and the exit report.
# REQUIRES: simulated
# RUN(exit=1): %run --simulated-gpu-memory 400MiB -o %t/reports/r.%p.%n.json -- %build/samples/sample_oom_leak_shared
# CHECK: 1. 400.0 MiB of device memory allocated in forward (oom_leak.cu:11) is still held from earlier: 40 allocations
# CHECK: step 40: cudaMalloc of 10 MiB failed
# RUN: %expr %t/reports 'len(reports) == 2 and any(e["diagnosis"] and e["diagnosis"][0]["cause"] == "accumulating_leak" for x in reports for e in x["oom_events"])'
# CHECK: holds:
