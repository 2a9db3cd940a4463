// Address reuse under contention: `threads` threads each make `per_thread`
// cudaMalloc(4096) and free all but every 100th at once, so the driver hands
// freed addresses straight to other threads. Exactly threads * per_thread / 100
// allocations stay alive.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 32;
  int per_thread = argc > 2 ? std::atoi(argv[2]) : 20000;
  std::vector<std::thread> pool;
  std::vector<int> errors(size_t(threads), 0);
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int i = 0; i < per_thread; ++i) {
        void* p = nullptr;
        if (cudaMalloc(&p, 4096) != cudaSuccess) {
          ++errors[size_t(t)];
          continue;
        }
        if (i % 100 != 0 && cudaFree(p) != cudaSuccess) ++errors[size_t(t)];
      }
    });
  }
  for (auto& t : pool) t.join();
  int total_errors = 0;
  for (int e : errors) total_errors += e;
  std::printf("kept %d errors %d\n", threads * ((per_thread + 99) / 100), total_errors);
  return total_errors ? 1 : 0;
}
