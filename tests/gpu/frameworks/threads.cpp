// Several threads allocating and freeing at once, each leaking one buffer.
#include <cuda_runtime.h>

#include <cstdio>
#include <thread>
#include <vector>

int main() {
  const int threads = 8;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([t] {
      for (int i = 0; i < 500; ++i) {
        void* p = nullptr;
        cudaMalloc(&p, 4096 * (t + 1));
        cudaFree(p);
      }
      void* kept = nullptr;
      cudaMalloc(&kept, 1 << 20);
    });
  for (auto& th : pool) th.join();
  std::printf("%d threads done\n", threads);
  return 0;
}
