// BUILD: %nvcc %s -o %t/prog
// RUN(exit=23): %run --error-exitcode 23 -o %t/r.json -- %t/prog
// CHECK: skipped batch 2
// CHECK: 2.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc on device 0
// CHECK: in load_batch
// CHECK: SUMMARY: cudaleak: 2.0 MiB leaked in 1 resource
// RUN: %python %root/tests/cases/tools/report_expr.py %t/r.json 'summary["leaked_bytes"] == 2 << 20 and summary["leaked_count"] == 1' 'len(leaks("device", "load_batch")) == 1 and leaks("device")[0]["api"] == "cudaMalloc"'
// CHECK: holds: summary["leaked_bytes"] == 2 << 20 and summary["leaked_count"] == 1
// CHECK: holds: len(leaks("device", "load_batch")) == 1 and leaks("device")[0]["api"] == "cudaMalloc"
// Device memory leaked on an early return: a validation error leaves the
// function before its cudaFree, on one call of four.
#include <cuda_runtime.h>

#include <cstdio>

__attribute__((noinline)) static bool load_batch(int batch) {
  void* staging = nullptr;
  if (cudaMalloc(&staging, 2 << 20) != cudaSuccess) return false;
  if (batch == 2) {
    std::printf("skipped batch %d\n", batch);
    return false;  // the leak: staging is never freed on this path
  }
  return cudaFree(staging) == cudaSuccess;
}

int main() {
  for (int batch = 0; batch < 4; ++batch) load_batch(batch);
  return 0;
}
