// A cuda-samples-like program built with the static cudart (its globals sit
// in the executable and must not count as the program's references):
// streams and events created at start-up and kept in globals for the
// program's life (never destroyed: still reachable), one event created per
// "iteration" and forgotten (definitely lost), device buffers held by a
// heap-allocated pipeline object reached from a global.
// REQUIRES: gpu
// BUILD: %nvcc-static %s -o %t/streams
// RUN: %run -o %t/streams.json -- %t/streams
// CHECK-DAG-RE: definitely lost: 8 events never destroyed, created by cudaEventCreate(WithFlags)? on device 0:
// CHECK-DAG-RE: 4 streams, created by cudaStreamCreate(WithFlags)? at main \(streams_in_globals\.cu:[0-9]+\) on device 0, referenced from g_streams \(streams\)
// CHECK-DAG-RE: 4 events, created by cudaEventCreate(WithFlags)? at main .* referenced from g_done \(streams\)
// CHECK-DAG-RE: referenced from a heap block reached from g_pipeline \(streams\)
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

constexpr int kStreams = 4;
cudaStream_t g_streams[kStreams];
cudaEvent_t g_done[kStreams];

struct Pipeline {
  float* input;
  float* output;
  size_t n;
};
Pipeline* g_pipeline;

__global__ void scale(const float* in, float* out, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

__attribute__((noinline)) void step(int s) {
  cudaEvent_t timing;  // created every step, never destroyed: lost
  cudaEventCreate(&timing);
  const size_t n = g_pipeline->n;
  scale<<<unsigned((n + 255) / 256), 256, 0, g_streams[s]>>>(g_pipeline->input, g_pipeline->output, n);
  cudaEventRecord(timing, g_streams[s]);
  cudaEventRecord(g_done[s], g_streams[s]);
}

__attribute__((noinline)) void clear_stack() {
  volatile char pad[256 * 1024];
  std::memset(const_cast<char*>(pad), 0, sizeof pad);
}

int main() {
  for (int s = 0; s < kStreams; ++s) {
    cudaStreamCreate(&g_streams[s]);
    cudaEventCreate(&g_done[s]);
  }
  g_pipeline = new Pipeline{nullptr, nullptr, size_t(1) << 20};
  cudaMalloc(&g_pipeline->input, g_pipeline->n * sizeof(float));
  cudaMalloc(&g_pipeline->output, g_pipeline->n * sizeof(float));
  for (int i = 0; i < 8; ++i) step(i % kStreams);
  cudaDeviceSynchronize();
  clear_stack();
  std::printf("pipeline done\n");
  return 0;
}
