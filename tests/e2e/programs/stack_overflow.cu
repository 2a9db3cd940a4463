// Leaks 1 MiB of device memory, then recurses until its stack overflows
// (SIGSEGV with no stack left for a handler on the thread's own stack).
#include <cuda_runtime.h>

#include <cstdio>

__attribute__((noinline)) int recurse(volatile char* previous, int depth) {
  volatile char frame[4096];
  frame[0] = previous ? previous[0] + 1 : 0;
  return depth == __INT_MAX__ ? 0 : recurse(frame, depth + 1) + frame[1];  // never returns: the stack runs out first
}

int main() {
  void* p = nullptr;
  if (cudaMalloc(&p, 1 << 20) != cudaSuccess) return 2;
  std::printf("about to overflow\n");
  std::fflush(stdout);
  return recurse(nullptr, 0);
}
