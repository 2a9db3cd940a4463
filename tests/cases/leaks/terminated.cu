// BUILD: %nvcc %s -o %t/prog
// RUN(signal=SIGTERM): %run --error-exitcode 23 -o %t/r.json -- %t/prog
// CHECK: allocated
// CHECK: 4.0 MiB of device memory in 1 allocation never freed
// RUN: %python %root/tests/cases/tools/report_expr.py %t/r.json 'r["reason"] == "termination" and summary["leaked_bytes"] == 4 << 20'
// CHECK: holds: r["reason"] == "termination" and summary["leaked_bytes"] == 4 << 20
// A program killed by SIGTERM (as a job scheduler ends it) after leaking: the
// report is written, then the process dies of the same signal.
#include <cuda_runtime.h>

#include <csignal>
#include <cstdio>

int main() {
  void* p = nullptr;
  if (cudaMalloc(&p, 4 << 20)) return 2;
  std::printf("allocated\n");
  std::fflush(stdout);
  std::raise(SIGTERM);
  return 0;
}
