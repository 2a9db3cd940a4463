// A double free that glibc turns into abort(), with the arena lock held, while other threads allocate
// CUDA memory: the crash report must be written and the process must die of
// SIGABRT as it does without cudaleak, never hang.
#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

int main() {
  void* leaked = nullptr;
  if (cudaMalloc(&leaked, 1 << 20) != cudaSuccess) return 2;
  std::atomic<bool> go{true};
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&] {
      while (go.load()) {
        void* p = nullptr;
        if (cudaMalloc(&p, 4096) == cudaSuccess) cudaFree(p);
        void* h = std::malloc(64);
        std::free(h);
      }
    });
  std::printf("about to corrupt the heap\n");
  std::fflush(stdout);
  // Too big for the tcache and fast bins: glibc detects the second free in
  // _int_free while it holds the arena lock ("double free or corruption"),
  // then abort()s. A crash handler that calls malloc there waits forever.
  char* volatile block = static_cast<char*>(std::malloc(4096));
  char* volatile guard = static_cast<char*>(std::malloc(4096));  // keeps block away from the top chunk
  std::memset(block, 1, 4096);
  std::free(block);
  std::free(block);
  std::free(guard);
  go = false;
  for (auto& t : threads) t.join();
  return 0;
}
