// A program killed by SIGTERM (as a job scheduler ends it) after leaking: the
// report is written, then the process dies of the same signal.
// RUN: --error-exitcode 23
// SIGNAL: SIGTERM
// STDOUT: allocated
// STDERR: 4.0 MiB of device memory in 1 allocation never freed
// REPORT: r["reason"] == "termination" and summary["leaked_bytes"] == 4 << 20
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
