// Out-of-memory scenarios:
//   oom_scenarios leak STEP_MIB         a training loop that keeps STEP_MIB per step until memory runs out
//   oom_scenarios single SIZE_MIB       one allocation of SIZE_MIB
//   oom_scenarios hold SIZE_MIB SECONDS holds SIZE_MIB for SECONDS (the "other process")
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
