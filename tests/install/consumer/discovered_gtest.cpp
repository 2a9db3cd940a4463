// GoogleTest tests found by gtest_discover_tests, each run in its own process
// under cudaleak_wrap_discovered_tests: the leaking one fails.
#include <gtest/gtest.h>

#include "cuda_calls.h"

TEST(Buffers, ReleasesItsBuffer) {
  void* p = nullptr;
  ASSERT_EQ(cuda::malloc(&p, 4096), 0);
  ASSERT_EQ(cuda::free(p), 0);
}

TEST(Buffers, ForgetsItsBuffer) {
  void* p = nullptr;
  ASSERT_EQ(cuda::malloc(&p, 8192), 0);
}
