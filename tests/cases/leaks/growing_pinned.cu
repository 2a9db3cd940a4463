// BUILD: %nvcc %s -o %t/prog
// RUN(exit=23): %run --error-exitcode 23 --min-bytes 100000 -o %t/r.json -- %t/prog 8
// CHECK: 512.0 KiB of pinned memory in 8 allocations never freed
// CHECK: in remember_step
// RUN: %python %root/tests/cases/tools/report_expr.py %t/r.json 'leaks("pinned", "remember_step")[0]["count"] == 8' 'summary["by_kind"]["pinned"]["bytes"] == 8 * 65536'
// CHECK: holds: leaks("pinned", "remember_step")[0]["count"] == 8
// CHECK: holds: summary["by_kind"]["pinned"]["bytes"] == 8 * 65536
// Pinned host memory that grows with each step: one allocation per step is
// kept in a list that is never drained. The leak gate's threshold
// (--min-bytes) lets a small leak pass but not this one.
#include <cuda_runtime.h>

#include <cstdlib>
#include <vector>

static std::vector<void*> history;

__attribute__((noinline)) static void remember_step() {
  void* p = nullptr;
  if (cudaMallocHost(&p, 65536) == cudaSuccess) history.push_back(p);
}

int main(int argc, char** argv) {
  int steps = argc > 1 ? std::atoi(argv[1]) : 4;
  for (int i = 0; i < steps; ++i) remember_step();
  return 0;
}
