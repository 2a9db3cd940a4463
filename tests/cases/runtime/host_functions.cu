// BUILD: %nvcc %s -o %t/prog
// RUN: %run -o %t/r.json -- %t/prog
// CHECK: host function: ran 3 times, on another thread, in order
// CHECK: stream callback: ran once, status 0, on another thread
// CHECK-NONE: not simulated
// CHECK: no CUDA resources leaked
//
// Host functions (cudaLaunchHostFunc, cudaStreamAddCallback) run as on a
// real GPU: on a thread of the driver's, not the caller's, in stream order,
// each done when the stream is synchronized; the program's own resources
// are released, and nothing of the driver's thread is reported. The same
// lines on a real GPU.
#include <pthread.h>

#include <cstdio>

#include <cuda_runtime.h>

struct Runs {
  int count = 0;
  int order_seen[3] = {-1, -1, -1};  // which launch ran first, second, third
  bool on_caller = false;
  pthread_t caller;
};
struct Step {
  Runs* runs;
  int launch;  // 0, 1, 2 in the order launched
};

static void CUDART_CB step(void* data) {
  auto* s = static_cast<Step*>(data);
  Runs* runs = s->runs;
  if (runs->count < 3) runs->order_seen[runs->count] = s->launch;
  ++runs->count;
  runs->on_caller = runs->on_caller || pthread_equal(pthread_self(), runs->caller);
}

static pthread_t g_caller;

static void CUDART_CB callback(cudaStream_t, cudaError_t status, void* data) {
  auto* seen = static_cast<int*>(data);
  seen[0] += 1;
  seen[1] = int(status);
  seen[2] = !pthread_equal(pthread_self(), g_caller);
}

int main() {
  cudaStream_t stream;
  if (cudaStreamCreate(&stream) != cudaSuccess) return 1;
  Runs runs;
  runs.caller = pthread_self();
  Step steps[3] = {{&runs, 0}, {&runs, 1}, {&runs, 2}};
  for (Step& s : steps)
    if (cudaLaunchHostFunc(stream, step, &s) != cudaSuccess) return 2;
  cudaStreamSynchronize(stream);
  const bool in_order = runs.order_seen[0] == 0 && runs.order_seen[1] == 1 && runs.order_seen[2] == 2;
  std::printf("host function: ran %d times, %s, %s\n", runs.count,
              runs.on_caller ? "on the caller's thread" : "on another thread", in_order ? "in order" : "out of order");
  int seen[3] = {0, -1, 0};
  g_caller = pthread_self();
  if (cudaStreamAddCallback(stream, callback, seen, 0) != cudaSuccess) return 3;
  cudaStreamSynchronize(stream);
  std::printf("stream callback: ran %s, status %d, %s\n", seen[0] == 1 ? "once" : "not once", seen[1],
              seen[2] ? "on another thread" : "on the caller's thread");
  cudaStreamDestroy(stream);
  return 0;
}
