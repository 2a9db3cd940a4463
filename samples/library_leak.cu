// A leak inside a shared library the program calls (libleaky_library.so).
#include "common.h"

extern "C" float* leaky_library_workspace(size_t bytes);

int main() {
  float* ws = leaky_library_workspace(4 << 20);
  fill<<<1, 256>>>(ws, 256, 1.0f);
  CHECK(cudaDeviceSynchronize());
  std::printf("workspace ready\n");
  return 0;
}
