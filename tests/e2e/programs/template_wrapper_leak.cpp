// A program built -O0 -g that calls cudaMalloc(&float_ptr, n): the call goes
// through cuda_runtime.h's template wrapper cudaMalloc<float>, a frame of
// CUDA's headers compiled into this program with a line of cuda_runtime.h.
// `fill` leaks in fill_buffers, `load` in load_batch: two programs' leaks
// through the same wrapper.
#include <cuda_runtime.h>

#include <cstring>

float* fill_buffers(size_t n) {
  float* buffer = nullptr;
  cudaMalloc(&buffer, n * sizeof(float));
  return buffer;
}

float* load_batch(size_t n) {
  float* batch = nullptr;
  cudaMalloc(&batch, n * sizeof(float));
  return batch;
}

int main(int argc, char** argv) {
  const bool load = argc > 1 && std::strcmp(argv[1], "load") == 0;
  float* leaked = load ? load_batch(2048) : fill_buffers(1024);
  return leaked ? 0 : 1;
}
