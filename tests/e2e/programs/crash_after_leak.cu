// Leaks 1 MiB of device memory, then dies of SIGSEGV.
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  void* p = nullptr;
  if (cudaMalloc(&p, 1 << 20) != cudaSuccess) return 2;
  std::printf("about to crash\n");
  std::fflush(stdout);
  volatile int* null = nullptr;
  *null = 1;
  return 0;
}
