// Mimics libraries that keep resources for the life of the process by design
// (PyTorch's at::cuda::getCurrentCUDABlasHandle; the events of its NCCL
// process group's event cache), next to leaks of the program's own: the
// shipped default suppressions hide the libraries' only. The process
// group's rule is for events: its device memory still counts.
#include <cuda_runtime.h>

#include <cstdio>

namespace at::cuda {
__attribute__((noinline)) void* getCurrentCUDABlasHandle() {
  static void* workspace = nullptr;
  if (!workspace) cudaMalloc(&workspace, 64 << 10);
  return workspace;
}
}  // namespace at::cuda

namespace c10d {
struct ProcessGroupNCCL {
  __attribute__((noinline)) static void _allgather_base() {
    static cudaEvent_t cached;  // c10d::CUDAEventCache keeps it for reuse
    if (!cached && cudaEventCreateWithFlags(&cached, cudaEventDisableTiming) != cudaSuccess)
      std::printf("no event\n");  // also keeps the call from being a tail call, which would lose this frame
  }
  __attribute__((noinline)) static void scratch() {
    void* p = nullptr;
    cudaMalloc(&p, 4 << 10);
  }
};
}  // namespace c10d

__attribute__((noinline)) void own_leak() {
  void* p = nullptr;
  cudaMalloc(&p, 8 << 10);
}

int main() {
  at::cuda::getCurrentCUDABlasHandle();
  c10d::ProcessGroupNCCL::_allgather_base();
  c10d::ProcessGroupNCCL::scratch();
  own_leak();
  std::printf("done\n");
  return 0;
}
