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

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  cudaleak::install_gtest_listener();
  return RUN_ALL_TESTS();
}
