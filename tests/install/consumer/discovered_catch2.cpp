// Catch2 test cases found by catch_discover_tests, each run in its own process
// under cudaleak_wrap_discovered_tests: the leaking one fails.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include "cuda_calls.h"

TEST_CASE("event is created and kept") {
  void* event = nullptr;
  REQUIRE(cuda::event_create(&event) == 0);
}

TEST_CASE("buffer is freed") {
  void* p = nullptr;
  REQUIRE(cuda::malloc(&p, 4096) == 0);
  REQUIRE(cuda::free(p) == 0);
}
