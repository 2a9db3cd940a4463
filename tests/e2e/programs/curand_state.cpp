// Two cuRAND generators (the stand-in library) whose state the library
// allocates in curandGenerateUniform, not at create (issue 50). `leak` leaves
// both alive at exit; `clean` destroys them.
#include <cuda.h>

#include <cstring>

#include "../../common/primary_context.h"

extern "C" int curandCreateGenerator(void** generator, int type);
extern "C" int curandDestroyGenerator(void* generator);
extern "C" int curandSetPseudoRandomGeneratorSeed(void* generator, unsigned long long seed);
extern "C" int curandGenerateUniform(void* generator, float* out, size_t n);

int main(int argc, char** argv) {
  const bool clean = argc > 1 && std::strcmp(argv[1], "clean") == 0;
  use_primary_context();
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, 1024 * sizeof(float)));
  void* generators[2];
  for (void*& g : generators) {
    CHECK(curandCreateGenerator(&g, 100));  // CURAND_RNG_PSEUDO_DEFAULT
    CHECK(curandSetPseudoRandomGeneratorSeed(g, 1234));
    CHECK(curandGenerateUniform(g, reinterpret_cast<float*>(out), 1024));
  }
  if (clean)
    for (void* g : generators) CHECK(curandDestroyGenerator(g));
  CHECK(cuMemFree(out));
  return 0;
}
