// A clean program: every resource it creates is released.
#include "common.h"

int main() {
  const size_t n = 1 << 16;
  float *d = nullptr, *h = nullptr;
  cudaStream_t s;
  cudaEvent_t e;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMallocHost(&h, n * sizeof(float)));
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaEventCreate(&e));
  fill<<<(n + 255) / 256, 256, 0, s>>>(d, n, 2.0f);
  CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CHECK(cudaEventRecord(e, s));
  CHECK(cudaEventSynchronize(e));
  CHECK(cudaEventDestroy(e));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(h));
  CHECK(cudaFree(d));
  std::printf("clean run finished\n");
  return 0;
}
