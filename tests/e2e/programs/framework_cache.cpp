// A framework's caching allocator next to a real leak: blocks cached by a
// function in PyTorch's allocator namespace (kept until exit by design), and a
// raw cudaMalloc in an "extension" that nobody frees.
#include <cuda_runtime_api.h>

#include <cstdio>

#include "cudaleak.h"
#include <cstring>
#include <vector>

namespace c10::cuda::CUDACachingAllocator::Native {
struct DeviceCachingAllocator {
  std::vector<void*> segments;  // the cache: never returned to CUDA
  __attribute__((noinline)) void* malloc(size_t bytes) {
    void* p = nullptr;
    if (cudaMalloc(&p, bytes) == cudaSuccess) segments.push_back(p);
    return p;
  }
};
}  // namespace c10::cuda::CUDACachingAllocator::Native

__attribute__((noinline)) void extension_workspace() {
  void* scratch = nullptr;
  cudaMalloc(&scratch, 3 << 20);  // the real leak
}

int main(int argc, char** argv) {
  static c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator allocator;
  bool grow = argc > 1 && std::strcmp(argv[1], "grow") == 0;
  for (int i = 0; i < 4; ++i) {
    if (grow) cudaleak_checkpoint("step");  // an observation per step
    allocator.malloc(20 << 20);
  }
  if (argc < 2) extension_workspace();
  std::printf("done\n");
  return 0;
}
