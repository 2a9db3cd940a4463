// A loop that leaks a little each iteration: each step allocates a scratch
// buffer and a result buffer, frees the scratch and "forgets" the result.
#include "common.h"

static float* step(int i) {
  float *scratch = nullptr, *result = nullptr;
  CHECK(cudaMalloc(&scratch, 64 << 10));
  CHECK(cudaMalloc(&result, 16 << 10));
  fill<<<16, 256>>>(result, 4096, float(i));
  CHECK(cudaFree(scratch));
  return result;
}

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 50;
  for (int i = 0; i < steps; ++i) step(i);
  CHECK(cudaDeviceSynchronize());
  std::printf("%d steps done\n", steps);
  return 0;
}
