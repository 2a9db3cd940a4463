# lost_and_held.cu built with the static cudart, on a GPU: its globals sit
# in the executable and must not count as the program's references. The
# pointer in a returned function's local and the forgotten event are
# definitely lost; the buffer a global holds, and the one held through a
# heap object, still reachable with the global named; the lost ones fail
# the default gate. (A few seconds.)
# REQUIRES: gpu
# BUILD: %nvcc-static %S/lost_and_held.cu -o %t/lost_and_held_static
# RUN: %run -o %t/held.json -- %t/lost_and_held_static
# CHECK-DAG: definitely lost: 4.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc on device 0:
# CHECK-DAG-RE: definitely lost: 1 event never destroyed, created by cudaEventCreate(WithFlags)? on device 0:
# CHECK-DAG-RE: 2\.0 MiB of device memory in 1 allocation, created by cudaMalloc at main \(lost_and_held\.cu:[0-9]+\) on device 0, referenced from g_cache \(lost_and_held_static\)
# CHECK-DAG: referenced from a heap block reached from g_holder (lost_and_held_static)
# CHECK-DAG: definitely lost: 4.0 MiB in 2 resources; still reachable: 3.0 MiB in 4 resources
# RUN(exit=9): %run --error-exitcode 9 -o %t/gate.json -- %t/lost_and_held_static
# CHECK: leak gate failed
