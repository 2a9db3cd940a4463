// Built with nvcc -O0 -g: cudaMalloc(&float_ptr, n) goes through CUDA's own
// template wrapper cudaMalloc<float> in cuda_runtime.h. The user's function
// is fill_buffers; the wrapper is the toolkit's.
#include <cstdio>

float* fill_buffers(size_t n) {
  float* p = nullptr;
  cudaMalloc(&p, n * sizeof(float));  // LINE:wrapper
  return p;
}

int main() {
  float* kept = fill_buffers(1 << 18);
  std::printf("%s\n", kept ? "allocated" : "failed");
  return 0;
}
