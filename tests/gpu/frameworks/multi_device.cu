// Every device of the machine: one buffer leaked on each, one freed.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  int n = 0;
  cudaGetDeviceCount(&n);
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    void *kept = nullptr, *freed = nullptr;
    cudaMalloc(&kept, size_t(d + 1) << 20);
    cudaMalloc(&freed, 1 << 20);
    cudaFree(freed);
  }
  std::printf("%d devices\n", n);
  return 0;
}
