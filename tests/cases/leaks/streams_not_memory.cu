// BUILD: %nvcc %s -o %t/prog
// RUN: %run --error-exitcode 23 --fail-on device,pinned -o %t/r.json -- %t/prog
// CHECK: 3 streams never destroyed, created by cudaStream
// CHECK: 3 events never destroyed, created by cudaEvent
// RUN: %python %root/tests/cases/tools/report_expr.py %t/r.json 'sum(g["count"] for g in leaks("stream")) == 3 and sum(g["count"] for g in leaks("event")) == 3' 'not any(g.get("fails_gate") for g in r["leaks"])'
// CHECK: holds: sum(g["count"] for g in leaks("stream")) == 3 and sum(g["count"] for g in leaks("event")) == 3
// CHECK: holds: not any(g.get("fails_gate") for g in r["leaks"])
// Streams and events left alive hold no memory: a gate on memory kinds only
// (--fail-on device,pinned) passes, and the report still lists them.
#include <cuda_runtime.h>

int main() {
  for (int i = 0; i < 3; ++i) {
    cudaStream_t s;
    cudaEvent_t e;
    if (cudaStreamCreate(&s) || cudaEventCreate(&e)) return 2;
  }
  return 0;
}
