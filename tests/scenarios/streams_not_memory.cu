// Streams and events left alive hold no memory: a gate on memory kinds only
// (--fail-on device,pinned) passes, and the report still lists them.
// RUN: --error-exitcode 23 --fail-on device,pinned
// EXIT: 0
// STDERR: 3 streams never destroyed, created by cudaStream
// STDERR: 3 events never destroyed, created by cudaEvent
// REPORT: sum(g["count"] for g in leaks("stream")) == 3 and sum(g["count"] for g in leaks("event")) == 3
// REPORT: not any(g.get("fails_gate") for g in r["leaks"])
#include <cuda_runtime.h>

int main() {
  for (int i = 0; i < 3; ++i) {
    cudaStream_t s;
    cudaEvent_t e;
    if (cudaStreamCreate(&s) || cudaEventCreate(&e)) return 2;
  }
  return 0;
}
