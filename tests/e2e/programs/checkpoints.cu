// Uses cudaleak.h the way a test harness would: a checkpoint per "test", the
// leaks since it, a checkpoint report, and a group that grows at every step.
// Prints the same lines (with -1 results) when run without cudaleak.
#include <cuda_runtime.h>

#include <cstdio>

#include "cudaleak.h"

int main() {
  std::printf("active: %d\n", cudaleak_active());
  cudaleak_checkpoint("start");
  for (int step = 0; step < 4; ++step) {
    cudaleak_checkpoint("step");  // an observation for growth detection
    void* kept = nullptr;
    cudaMalloc(&kept, 4096);  // never freed: grows by one each step
  }
  void* freed = nullptr;
  cudaMalloc(&freed, 1 << 20);
  cudaFree(freed);
  cudaleak_stats stats = {0, 0};
  int rc = cudaleak_leaks_since("start", &stats);
  std::printf("leaks since start: rc=%d count=%llu bytes=%llu\n", rc, stats.count, stats.bytes);
  std::printf("unknown checkpoint: %d\n", cudaleak_leaks_since("never-set", &stats));
  std::printf("report: %d\n", cudaleak_report("after-loop"));
  return 0;
}
