// Leaks 1 MiB of device memory, marks a checkpoint, then dies of SIGSEGV.
#include <cuda_runtime.h>

#include <cstdio>

#include "cudaleak.h"

int main() {
  void* p = nullptr;
  if (cudaMalloc(&p, 1 << 20) != cudaSuccess) return 2;
  cudaleak_checkpoint("allocated");
  std::printf("about to crash\n");
  std::fflush(stdout);
  volatile int* null = nullptr;
  *null = 1;
  return 0;
}
