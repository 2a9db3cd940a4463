// A training loop that keeps every step's activations by mistake until the
// device is full: the allocation that finally fails is not the culprit, the
// buffers kept from earlier steps are. cudaleak's out-of-memory diagnosis
// names them. Each step takes 1/40 of the device's memory.
#include <vector>

#include "common.h"

static float* forward(size_t bytes, int step) {
  float* activations = nullptr;
  cudaError_t err = cudaMalloc(&activations, bytes);
  if (err != cudaSuccess) {
    std::fprintf(stderr, "step %d: cudaMalloc of %zu MiB failed: %s\n", step, bytes >> 20, cudaGetErrorString(err));
    std::exit(1);
  }
  fill<<<64, 256>>>(activations, 16384, float(step));
  return activations;
}

int main() {
  size_t free_bytes = 0, total_bytes = 0;
  CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const size_t step_bytes = total_bytes / 40;
  std::vector<float*> history;  // meant for the last step only; never cleared
  for (int step = 0; step < 1000; ++step) history.push_back(forward(step_bytes, step));
  std::printf("no out-of-memory after 1000 steps\n");
  return 0;
}
