// The native frames of PyTorch's caching allocator, for the fake torch:
// segments are reserved through a function in c10's allocator namespace, as
// libc10_cuda.so does, so that cudaleak knows the failed calls for its own.
#include <cuda_runtime_api.h>

#include <cstddef>

namespace c10::cuda::CUDACachingAllocator::Native {
__attribute__((noinline)) int reserve_segment(void** ptr, size_t size) {
  int r = int(cudaMalloc(ptr, size));
  asm volatile("");  // a frame of its own, not a tail call
  return r;
}
}  // namespace c10::cuda::CUDACachingAllocator::Native

extern "C" __attribute__((visibility("default"))) int fake_c10_reserve_segment(void** ptr, size_t size) {
  int r = c10::cuda::CUDACachingAllocator::Native::reserve_segment(ptr, size);
  asm volatile("");
  return r;
}
