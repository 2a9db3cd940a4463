// REQUIRES: gpu
// BUILD: %nvcc %s -o %t/prog -lcurand
// RUN: %run -o %t/r.json -- %t/prog
// CHECK-RE: 2 cuRAND generators never destroyed \(curandDestroyGenerator\), created by curandCreateGenerator on device 0, holding [0-9.]+ KiB of device memory
// CHECK-NONE: created by curandGenerate
// Two cuRAND generators never destroyed; cuRAND allocates each one's state in
// its first curandGenerateUniform, not at create: the state is the
// generators', not a leak of its own.
#include <curand.h>

#include <cstdio>

int main() {
  float* out = nullptr;
  cudaMalloc(&out, (1 << 20) * sizeof(float));
  curandGenerator_t generators[2];
  for (auto& g : generators) {
    curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
    curandSetPseudoRandomGeneratorSeed(g, 1234);
    curandGenerateUniform(g, out, 1 << 20);  // LINE:generate
  }
  cudaDeviceSynchronize();
  cudaFree(out);
  std::printf("done\n");
  return 0;
}
