// A stand-in for libcurand.so.10: as the real library does, a generator
// holds no device memory after curandCreateGenerator; its state (192 KiB
// here) is allocated through the driver in the first curandGenerate* call
// and freed by curandDestroyGenerator. Exercises what a library makes later
// on a handle's behalf (HookRole::Use).
#include <cuda.h>

#include <cstddef>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr size_t kStateBytes = size_t(192) << 10;

struct Generator {
  CUdeviceptr state = 0;
  unsigned long long seed = 0;
};

// 0 CURAND_STATUS_SUCCESS, 101 NOT_INITIALIZED, 102 ALLOCATION_FAILED.
int ensure_state(Generator* g) {
  if (!g) return 101;
  if (g->state) return 0;
  return cuMemAlloc(&g->state, kStateBytes) == CUDA_SUCCESS ? 0 : 102;
}

}  // namespace

FAKE_EXPORT int curandCreateGenerator(void** out, int) {
  if (!out) return 101;
  *out = new Generator;
  return 0;
}

FAKE_EXPORT int curandDestroyGenerator(void* generator) {
  auto* g = static_cast<Generator*>(generator);
  if (!g) return 101;
  if (g->state) cuMemFree(g->state);
  delete g;
  return 0;
}

FAKE_EXPORT int curandSetPseudoRandomGeneratorSeed(void* generator, unsigned long long seed) {
  if (!generator) return 101;
  static_cast<Generator*>(generator)->seed = seed;
  return 0;
}

FAKE_EXPORT int curandGenerateUniform(void* generator, float*, size_t) {
  return ensure_state(static_cast<Generator*>(generator));
}

FAKE_EXPORT int curandGenerate(void* generator, unsigned*, size_t) {
  return ensure_state(static_cast<Generator*>(generator));
}
