// A GoogleTest binary with the cudaleak listener: one test leaks.
#include <cuda_runtime_api.h>

#include "cudaleak_gtest.h"

TEST(Cuda, ReleasesEverything) {
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 4096), cudaSuccess);
  ASSERT_EQ(cudaFree(p), cudaSuccess);
}

TEST(Cuda, ForgetsABuffer) {
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 8192), cudaSuccess);
}

// Budgets: run with --gtest_filter=Budget.* (the leak tests above stay as they are).
TEST(Budget, PeakWithinBudget) {
  CUDALEAK_LIMIT_MEMORY(24 << 20);
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 16 << 20), cudaSuccess);
  ASSERT_EQ(cudaFree(p), cudaSuccess);
}

TEST(Budget, PeakOverBudget) {
  CUDALEAK_LIMIT_MEMORY(24 << 20);
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(cudaMalloc(&a, 8 << 20), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&b, 20 << 20), cudaSuccess);  // line 30: over 24 MiB
  ASSERT_EQ(cudaFree(a), cudaSuccess);
  ASSERT_EQ(cudaFree(b), cudaSuccess);
}

TEST(Budget, LeakWithinBudget) {
  CUDALEAK_LIMIT_LEAKS(1 << 20);
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 512 << 10), cudaSuccess);
}

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  cudaleak::install_gtest_listener();
  return RUN_ALL_TESTS();
}
