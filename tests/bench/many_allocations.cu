// N live allocations, never freed: the load for the exit report and
// `cudaleak report` benchmarks (scripts/bench-report.sh). From four call sites,
// or with "spread" from 1,000 (three levels of ten functions each).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

__attribute__((noinline)) static void site_a(void** p) { cudaMalloc(p, 256); }
__attribute__((noinline)) static void site_b(void** p) { cudaMalloc(p, 512); }
__attribute__((noinline)) static void site_c(void** p) { cudaMallocHost(p, 64); }
__attribute__((noinline)) static void site_d(void** p) { cudaMalloc(p, 1024); }

using Level = void (*)(void**, long);
// The empty asm after each call keeps it from becoming a tail call, so that
// every path keeps its three frames.
template <int N>
__attribute__((noinline)) void leaf(void** p, long) {
  cudaMalloc(p, 256 + 16 * N);
  asm volatile("");
}
constexpr Level kLeaves[] = {leaf<0>, leaf<1>, leaf<2>, leaf<3>, leaf<4>, leaf<5>, leaf<6>, leaf<7>, leaf<8>, leaf<9>};
template <int N>
__attribute__((noinline)) void middle(void** p, long i) {
  kLeaves[i % 10](p, i);
  asm volatile("");
}
constexpr Level kMiddles[] = {middle<0>, middle<1>, middle<2>, middle<3>, middle<4>,
                              middle<5>, middle<6>, middle<7>, middle<8>, middle<9>};
template <int N>
__attribute__((noinline)) void outer(void** p, long i) {
  kMiddles[(i / 10) % 10](p, i);
  asm volatile("");
}
constexpr Level kOuters[] = {outer<0>, outer<1>, outer<2>, outer<3>, outer<4>,
                             outer<5>, outer<6>, outer<7>, outer<8>, outer<9>};

int main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 1000000;
  bool spread = argc > 2 && std::strcmp(argv[2], "spread") == 0;
  void* p = nullptr;
  for (long i = 0; i < n; ++i) {
    if (spread) {
      kOuters[(i / 100) % 10](&p, i);
      continue;
    }
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
