// N live allocations from a handful of call sites, never freed: the load for
// the exit report and `cudaleak report` benchmarks (scripts/bench-report.sh).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__attribute__((noinline)) static void site_a(void** p) { cudaMalloc(p, 256); }
__attribute__((noinline)) static void site_b(void** p) { cudaMalloc(p, 512); }
__attribute__((noinline)) static void site_c(void** p) { cudaMallocHost(p, 64); }
__attribute__((noinline)) static void site_d(void** p) { cudaMalloc(p, 1024); }

int main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1000000;
  void* p = nullptr;
  for (long i = 0; i < n; ++i) {
    switch (i % 4) {
      case 0: site_a(&p); break;
      case 1: site_b(&p); break;
      case 2: site_c(&p); break;
      default: site_d(&p); break;
    }
  }
  std::printf("%ld allocations live\n", n);
  return 0;
}
