// Mimics a library that keeps a handle for the life of the process by design
// (PyTorch's at::cuda::getCurrentCUDABlasHandle), next to a leak of the
// program's own: the shipped default suppressions hide the first only.
#include <cuda_runtime.h>

#include <cstdio>

namespace at::cuda {
__attribute__((noinline)) void* getCurrentCUDABlasHandle() {
  static void* workspace = nullptr;
  if (!workspace) cudaMalloc(&workspace, 64 << 10);
  return workspace;
}
}  // namespace at::cuda

__attribute__((noinline)) void own_leak() {
  void* p = nullptr;
  cudaMalloc(&p, 8 << 10);
}

int main() {
  at::cuda::getCurrentCUDABlasHandle();
  own_leak();
  std::printf("done\n");
  return 0;
}
