// Pinned host memory never freed: one cudaMallocHost staging buffer and one
// cudaHostAlloc buffer; a third buffer is freed correctly.
#include "common.h"

int main() {
  void *staging = nullptr, *mapped = nullptr, *freed = nullptr;
  CHECK(cudaMallocHost(&staging, 2 << 20));
  CHECK(cudaHostAlloc(&mapped, 64 << 10, cudaHostAllocMapped));
  CHECK(cudaMallocHost(&freed, 1 << 20));
  CHECK(cudaFreeHost(freed));
  std::printf("staging buffers ready\n");
  return 0;
}
