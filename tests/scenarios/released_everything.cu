// Every kind the runtime API hands out, released: no leak, the gate passes
// and the report says so.
// RUN: --error-exitcode 23
// EXIT: 0
// STDERR: no CUDA resources leaked
// STDERR-NOT: never freed
// STDERR-NOT: never destroyed
// REPORT: summary["leaked_count"] == 0 and r["leaks"] == []
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
