// A Catch2 test binary checking each test with cudaleak.h: one test leaks.
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_CONSOLE_WIDTH 200  // the checks read whole lines
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include "cudaleak.h"
#include "cudaleak_catch2.h"

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

// Budgets through cudaleak_catch2.h: run with the tag [budget].
TEST_CASE("peak within budget", "[budget]") {
  CUDALEAK_TEST_SCOPE(.limit_memory = 24 << 20);
  void* p = nullptr;
  REQUIRE(cudaMalloc(&p, 16 << 20) == cudaSuccess);
  REQUIRE(cudaFree(p) == cudaSuccess);
}

TEST_CASE("peak over budget", "[budget]") {
  CUDALEAK_TEST_SCOPE(.limit_memory = 24 << 20);
  void *a = nullptr, *b = nullptr;
  REQUIRE(cudaMalloc(&a, 8 << 20) == cudaSuccess);
  REQUIRE(cudaMalloc(&b, 20 << 20) == cudaSuccess);  // over 24 MiB
  REQUIRE(cudaFree(a) == cudaSuccess);
  REQUIRE(cudaFree(b) == cudaSuccess);
}

TEST_CASE("leak over its budget", "[budget]") {
  CUDALEAK_TEST_SCOPE(.limit_leaks = 1 << 20);
  void* p = nullptr;
  REQUIRE(cudaMalloc(&p, 2 << 20) == cudaSuccess);  // 2 MiB left alive
}

TEST_CASE("leak within its budget", "[budget]") {
  CUDALEAK_TEST_SCOPE(.limit_leaks = 1 << 20);
  void* p = nullptr;
  REQUIRE(cudaMalloc(&p, 512 << 10) == cudaSuccess);
}
