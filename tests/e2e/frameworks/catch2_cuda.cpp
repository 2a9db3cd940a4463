// A Catch2 test binary checking each test with cudaleak.h: one test leaks.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include "cudaleak.h"

// Checks at the end of a test that it released what it created.
struct LeakCheck {
  explicit LeakCheck(const char* name) : name(name) { cudaleak_checkpoint(name); }
  unsigned long long leaked() const {
    cudaleak_stats s = {0, 0};
    return cudaleak_leaks_since(name, &s) == 0 ? s.count : 0;
  }
  const char* name;
};

TEST_CASE("stream is destroyed") {
  LeakCheck check("catch2:stream is destroyed");
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  REQUIRE(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(check.leaked() == 0);
}

TEST_CASE("event is forgotten") {
  LeakCheck check("catch2:event is forgotten");
  cudaEvent_t e;
  REQUIRE(cudaEventCreate(&e) == cudaSuccess);
  CHECK(check.leaked() == 0);
}
