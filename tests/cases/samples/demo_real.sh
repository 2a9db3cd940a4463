# scripts/demo.sh on a real GPU (the samples with nvcc's default static
# cudart): the leak's line, the gate failing, the rule it prints accepted,
# the gate passing with it, the out-of-memory explained, and the HTML page
# written (into the build's demo/ folder, as the demo says).
# REQUIRES: gpu
# RUN: CUDALEAK_BUILD=%build %root/scripts/demo.sh 2>&1
# CHECK-DAG: == real GPU: GPU 0
# CHECK-DAG-RE: process_batch .*exception_leak\.cu:10
# CHECK-DAG-RE: leak gate failed: 1 leak group .*exiting with status 1
# CHECK-DAG: accepted as known: leak:step kind:device
# CHECK-DAG: Suppressed: 50 / 800.0 KiB
# CHECK-DAG-RE: 1\. .* of device memory allocated in forward \(oom_leak\.cu:11\) is still held from earlier: [0-9]+ allocations
# CHECK-DAG-RE: Open .*/demo/report\.html in a browser
# RUN: grep -c data-section %build/demo/report.html
# CHECK-RE: \A[1-9]
