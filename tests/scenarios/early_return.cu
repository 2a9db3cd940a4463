// Device memory leaked on an early return: a validation error leaves the
// function before its cudaFree, on one call of four.
// RUN: --error-exitcode 23
// EXIT: 23
// STDOUT: skipped batch 2
// STDERR: 2.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc on device 0
// STDERR: in load_batch
// STDERR: SUMMARY: cudaleak: 2.0 MiB leaked in 1 resource
// REPORT: summary["leaked_bytes"] == 2 << 20 and summary["leaked_count"] == 1
// REPORT: len(leaks("device", "load_batch")) == 1 and leaks("device")[0]["api"] == "cudaMalloc"
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
