// Out-of-memory scenarios:
//   oom_scenarios leak STEP_MIB         a training loop that keeps STEP_MIB per step until memory runs out
//   oom_scenarios single SIZE_MIB       one allocation of SIZE_MIB
//   oom_scenarios hold SIZE_MIB SECONDS holds SIZE_MIB for SECONDS (the "other process")
//   oom_scenarios stack KIB SIZE_MIB    a per-thread stack of KIB, then one allocation of SIZE_MIB
//   oom_scenarios heap MIB              a device heap of MIB, kept until exit
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static std::vector<void*> g_history;  // "kept for later": never released

__attribute__((noinline)) static cudaError_t train_step(size_t bytes) {
  void* activations = nullptr;
  cudaError_t e = cudaMalloc(&activations, bytes);
  if (e == cudaSuccess) g_history.push_back(activations);
  return e;
}

// Not a tail call: the frame stays in the stack of the call it makes.
__attribute__((noinline)) static cudaError_t enlarge_stack(size_t bytes) {
  cudaError_t e = cudaDeviceSetLimit(cudaLimitStackSize, bytes);
  if (e != cudaSuccess) std::fprintf(stderr, "enlarge_stack: %s\n", cudaGetErrorString(e));
  return e;
}

// Not a tail call: the frame stays in the stack of the call it makes.
__attribute__((noinline)) static cudaError_t enlarge_heap(size_t bytes) {
  cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, bytes);
  if (e != cudaSuccess) std::fprintf(stderr, "enlarge_heap: %s\n", cudaGetErrorString(e));
  return e;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  size_t mib = size_t(std::atol(argv[2])) << 20;
  if (std::strcmp(argv[1], "leak") == 0) {
    for (int step = 0;; ++step) {
      cudaError_t e = train_step(mib);
      if (e != cudaSuccess) {
        std::printf("step %d failed: %s\n", step, cudaGetErrorString(e));
        return 1;
      }
      usleep(2000);  // steps take time: the leak spreads over the run
    }
  }
  if (std::strcmp(argv[1], "single") == 0) {
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, mib);
    std::printf("single allocation: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
  }
  if (std::strcmp(argv[1], "stack") == 0 && argc > 3) {
    cudaError_t e = enlarge_stack(size_t(std::atol(argv[2])) << 10);
    std::printf("stack limit: %s\n", cudaGetErrorString(e));
    void* p = nullptr;
    e = cudaMalloc(&p, size_t(std::atol(argv[3])) << 20);
    std::printf("allocation: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
  }
  if (std::strcmp(argv[1], "heap") == 0) {
    enlarge_heap(mib / 2);  // a first setting, replaced by the next
    cudaError_t e = enlarge_heap(mib);
    size_t value = 0;
    cudaDeviceGetLimit(&value, cudaLimitMallocHeapSize);
    std::printf("heap limit: %s, %zu MiB\n", cudaGetErrorString(e), value >> 20);
    return e == cudaSuccess ? 0 : 1;
  }
  if (std::strcmp(argv[1], "hold") == 0 && argc > 3) {
    void* p = nullptr;
    if (cudaMalloc(&p, mib) != cudaSuccess) return 1;
    std::printf("holding\n");
    std::fflush(stdout);
    sleep(unsigned(std::atoi(argv[3])));
    cudaFree(p);
    return 0;
  }
  return 2;
}
