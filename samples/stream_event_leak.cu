// Streams and events never destroyed: a pool of worker streams and their
// completion events is created and only half of it is cleaned up.
#include "common.h"

int main() {
  const int workers = 4;
  cudaStream_t streams[workers];
  cudaEvent_t done[workers];
  float* data = nullptr;
  CHECK(cudaMalloc(&data, 1024 * sizeof(float)));
  for (int i = 0; i < workers; ++i) {
    CHECK(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming));
    fill<<<4, 256, 0, streams[i]>>>(data, 1024, float(i));
    CHECK(cudaEventRecord(done[i], streams[i]));
  }
  for (int i = 0; i < workers; ++i) CHECK(cudaEventSynchronize(done[i]));
  for (int i = 0; i < workers / 2; ++i) {  // the other half is forgotten
    CHECK(cudaStreamDestroy(streams[i]));
    CHECK(cudaEventDestroy(done[i]));
  }
  CHECK(cudaFree(data));
  std::printf("%d workers finished\n", workers);
  return 0;
}
