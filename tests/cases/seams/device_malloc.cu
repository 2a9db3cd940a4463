// REQUIRES: gpu
// BUILD: %nvcc %s -o %t/prog
// RUN: %run -o %t/r.json -- %t/prog
// CHECK: done
// CHECK: call device-side malloc, which cudaleak tracks only with --device-heap
// RUN: %run --device-heap true -o %t/heap.json -- %t/prog
// CHECK: of device-heap memory in 32 allocations never freed, made by malloc in keep
// CHECK-NONE: which cudaleak tracks only with --device-heap
// Kernels that malloc on the device and never free: without --device-heap
// cudaleak cannot see them, and says so in one line.
#include <cstdio>

__global__ void keep(int** out) {
  int* p = static_cast<int*>(malloc(256));
  if (p) *p = threadIdx.x;
  out[threadIdx.x] = p;
}

int main() {
  int** out = nullptr;
  cudaMalloc(&out, 32 * sizeof(int*));
  keep<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  cudaFree(out);
  std::printf("done\n");
  return 0;
}
