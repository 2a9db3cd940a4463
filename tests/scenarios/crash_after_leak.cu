// A crash (SIGSEGV) after a leak: the report is still written, from the raw
// capture the crash handler left, and the process dies of the same signal.
// RUN: --error-exitcode 23
// SIGNAL: SIGSEGV
// STDERR: 2.0 MiB of device memory in 1 allocation never freed
// STDERR: in keep_buffer
// REPORT: r["reason"] == "crash" and summary["leaked_bytes"] == 2 << 20
// REPORT: len(leaks("device", "keep_buffer")) == 1
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
