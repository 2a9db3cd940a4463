// Device memory leaked on an exception path: the buffer is freed only when
// process_batch() returns normally. The program handles the error and exits 3.
#include <stdexcept>

#include "common.h"

static void process_batch(int batch) {
  float* buffer = nullptr;
  const size_t n = 1 << 18;  // 1 MiB of floats
  CHECK(cudaMalloc(&buffer, n * sizeof(float)));
  fill<<<(n + 255) / 256, 256>>>(buffer, n, float(batch));
  CHECK(cudaDeviceSynchronize());
  if (batch == 2) throw std::runtime_error("batch 2: corrupt input");
  CHECK(cudaFree(buffer));
}

int main() {
  try {
    for (int batch = 0; batch < 4; ++batch) process_batch(batch);
  } catch (const std::exception& e) {
    std::printf("error: %s\n", e.what());
    return 3;
  }
  return 0;
}
