// BUILD: %nvcc %s -o %t/prog
// RUN: %run --error-exitcode 23 -o %t/r.json -- %t/prog
// CHECK: no CUDA resources leaked
// CHECK-NONE: never freed
// CHECK-NONE: never destroyed
// RUN: %python %root/tests/cases/tools/report_expr.py %t/r.json 'summary["leaked_count"] == 0 and r["leaks"] == []'
// CHECK: holds: summary["leaked_count"] == 0 and r["leaks"] == []
// Every kind the runtime API hands out, released: no leak, the gate passes
// and the report says so.
#include <cuda_runtime.h>

int main() {
  void *device = nullptr, *pinned = nullptr, *managed = nullptr, *async = nullptr;
  cudaStream_t stream;
  cudaEvent_t event;
  if (cudaMalloc(&device, 1 << 20) || cudaMallocHost(&pinned, 1 << 16) || cudaMallocManaged(&managed, 1 << 16) ||
      cudaStreamCreate(&stream) || cudaEventCreate(&event) || cudaMallocAsync(&async, 4096, stream))
    return 2;
  cudaFreeAsync(async, stream);
  cudaStreamSynchronize(stream);
  cudaEventDestroy(event);
  cudaStreamDestroy(stream);
  cudaFree(managed);
  cudaFreeHost(pinned);
  cudaFree(device);
  return 0;
}
