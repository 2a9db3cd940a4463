# Device-side malloc is off by default (no device_heap resource), and with
# it on a kernel that frees everything leaves nothing: the gate passes.
# REQUIRES: simulated
# RUN: %run -o %t/off.json -- %build/tests/e2e/device_heap_kernels leaks
# RUN: %expr %t/off.json 'count("device_heap") == 0'
# CHECK: holds:
# RUN: %run --device-heap --error-exitcode 23 -o %t/clean.json -- %build/tests/e2e/device_heap_kernels clean
# RUN: %expr %t/clean.json 'count("device_heap") == 0'
# CHECK: holds:
