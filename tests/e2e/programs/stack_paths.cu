// Call paths built to fool a stack cache: allocations made at the same stack
// pointer through different callers, alternating, from several threads.
// Every site allocates its own size, so a report that mixed two paths' stacks
// would show a group with the wrong bytes or count. Leaks everything.
//   site_a / site_b: twin leaf functions called from one place (same SP)
//   via_left / via_right: twin callers of the same leaf (same SP, the caller's
//   return address differs two frames out)
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#define NOINLINE __attribute__((noinline))
#define KEEP_FRAME asm volatile("" ::: "memory")

static int g_errors = 0;

extern "C" NOINLINE void site_a(size_t bytes) {
  void* p;
  if (cudaMalloc(&p, bytes) != cudaSuccess) ++g_errors;
  KEEP_FRAME;
}
extern "C" NOINLINE void site_b(size_t bytes) {
  void* p;
  if (cudaMalloc(&p, bytes) != cudaSuccess) ++g_errors;
  KEEP_FRAME;
}
extern "C" NOINLINE void leaf(size_t bytes) {
  void* p;
  if (cudaMalloc(&p, bytes) != cudaSuccess) ++g_errors;
  KEEP_FRAME;
}
extern "C" NOINLINE void via_left(size_t bytes) {
  leaf(bytes);
  KEEP_FRAME;
}
extern "C" NOINLINE void via_right(size_t bytes) {
  leaf(bytes);
  KEEP_FRAME;
}

// Each round makes the four allocations from one frame: the same stack
// pointer at every cudaMalloc of a thread.
extern "C" NOINLINE void round_of_four(size_t unit) {
  site_a(1 * unit);
  site_b(2 * unit);
  via_left(3 * unit);
  via_right(4 * unit);
  KEEP_FRAME;
}

int main(int argc, char** argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 4;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 100;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([rounds] {
      for (int i = 0; i < rounds; ++i) round_of_four(256);
    });
  for (auto& t : pool) t.join();
  for (int i = 0; i < rounds; ++i) round_of_four(256);  // and the main thread
  std::printf("errors %d\n", g_errors);
  return g_errors ? 1 : 0;
}
