// BUILD: %nvcc %s -o %t/prog
// RUN(signal=SIGSEGV): %run --error-exitcode 23 -o %t/r.json -- %t/prog
// CHECK: 2.0 MiB of device memory in 1 allocation never freed
// CHECK: in keep_buffer
// RUN: %python %root/tests/cases/tools/report_expr.py %t/r.json 'r["reason"] == "crash" and summary["leaked_bytes"] == 2 << 20' 'len(leaks("device", "keep_buffer")) == 1'
// CHECK: holds: r["reason"] == "crash" and summary["leaked_bytes"] == 2 << 20
// CHECK: holds: len(leaks("device", "keep_buffer")) == 1
// A crash (SIGSEGV) after a leak: the report is still written, from the raw
// capture the crash handler left, and the process dies of the same signal.
#include <cuda_runtime.h>

#include <csignal>

__attribute__((noinline)) static void* keep_buffer() {
  void* p = nullptr;
  cudaMalloc(&p, 2 << 20);
  return p;
}

int main() {
  volatile void* kept = keep_buffer();
  (void)kept;
  std::raise(SIGSEGV);
  return 0;
}
