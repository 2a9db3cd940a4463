// A shared library with a leak inside: its workspace is allocated on first
// use and nothing ever frees it.
#include "common.h"

extern "C" __attribute__((visibility("default"))) float* leaky_library_workspace(size_t bytes) {
  static float* workspace = nullptr;
  if (!workspace) CHECK(cudaMalloc(&workspace, bytes));
  return workspace;
}
