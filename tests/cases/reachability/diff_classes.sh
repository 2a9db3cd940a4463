# `cudaleak diff` compares what the reports count as leaked: the two
# definitely lost sites of lost_and_held.cu are new, the four still
# reachable resources (alive, held by globals) are no leak site, as in the
# summary and the gate. The same report against itself: nothing new.
# REQUIRES: nvcc
# BUILD: %nvcc %root/tests/cases/reachability/lost_and_held.cu -o %t/prog
# BUILD: printf '#include <cuda_runtime.h>\nint main() { void* p; cudaMalloc(&p, 1); return cudaFree(p); }\n' > %t/clean.cu
# BUILD: %nvcc %t/clean.cu -o %t/clean
# RUN: %run -o %t/clean.json -- %t/clean
# RUN: %run -o %t/lh.json -- %t/prog
# CHECK: still reachable: 3.0 MiB in 4 resources
# RUN(exit=1): %cudaleak diff %t/clean.json %t/lh.json
# CHECK-RE: new +device +0 B -> 4\.0 MiB +0 -> 1 +device \| lose_in_local\(\) @ lost_and_held\.cu:\d+
# CHECK-RE: new +event .* forget_event\(\) @ lost_and_held\.cu:\d+
# CHECK: 2 leak sites new or grown, 2 compared
# CHECK-NONE: 2.0 MiB
# CHECK-NONE: stream
# RUN: %cudaleak diff %t/lh.json %t/lh.json --format json
# CHECK-COUNT(2): "change": "same"
