// Per-call costs of the CUDA calls cudaleak intercepts, made from a stack of
// a chosen depth (capture cost grows with it). Prints one line per operation:
//   NAME DEPTH median_ns_per_op
// Usage: bench_api_costs DEPTH [ROUNDS]   (also: bench_api_costs memory N)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using Clock = std::chrono::steady_clock;

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Runs `op` `per_round` times per round; the median of the rounds' mean cost.
static double measure(int rounds, int per_round, const std::function<void()>& op) {
  std::vector<double> means;
  for (int r = 0; r < rounds; ++r) {
    auto t0 = Clock::now();
    for (int i = 0; i < per_round; ++i) op();
    means.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / per_round);
  }
  return median(means);
}

// Calls `body` from `depth` frames down.
__attribute__((noinline)) static void at_depth(int depth, const std::function<void()>& body) {
  if (depth <= 1) return body();
  at_depth(depth - 1, body);
  asm volatile("" ::: "memory");  // keep the frame: no tail call
}

static long rss_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

int main(int argc, char** argv) {
  cudaFree(nullptr);  // context creation outside the measurements
  if (argc > 2 && std::strcmp(argv[1], "memory") == 0) {
    // Host memory per live allocation: RSS before and after N live cudaMalloc(256).
    long n = std::atol(argv[2]);
    std::vector<void*> live(static_cast<size_t>(n));
    long before = rss_kib();
    auto t0 = Clock::now();
    for (long i = 0; i < n; ++i) cudaMalloc(live.data() + i, 256);
    double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / double(n);
    long after = rss_kib();
    std::printf("live_allocations %ld rss_kib_delta %ld bytes_per_allocation %.1f malloc_ns %.0f\n", n, after - before,
                double(after - before) * 1024.0 / double(n), ns);
    return 0;  // exit with them live: the exit report covers N allocations
  }
  int depth = argc > 1 ? std::atoi(argv[1]) : 8;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 11;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  auto report = [&](const char* name, double ns) { std::printf("%-28s %3d %10.0f\n", name, depth, ns); };
  double r;

  for (size_t bytes : {size_t(256), size_t(1) << 20}) {
    std::vector<void*> ptrs(200);
    std::vector<double> alloc_rounds, free_rounds;
    for (int round = 0; round < rounds; ++round) {
      at_depth(depth, [&] {
        auto t0 = Clock::now();
        for (auto& p : ptrs) cudaMalloc(&p, bytes);
        auto t1 = Clock::now();
        for (auto p : ptrs) cudaFree(p);
        auto t2 = Clock::now();
        alloc_rounds.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / double(ptrs.size()));
        free_rounds.push_back(std::chrono::duration<double, std::nano>(t2 - t1).count() / double(ptrs.size()));
      });
    }
    report(bytes == 256 ? "cudaMalloc_256B" : "cudaMalloc_1MiB", median(alloc_rounds));
    report(bytes == 256 ? "cudaFree_256B" : "cudaFree_1MiB", median(free_rounds));
  }
  at_depth(depth, [&] {
    r = measure(rounds, 1000, [&] {
      void* p;
      cudaMallocAsync(&p, 4096, stream);
      cudaFreeAsync(p, stream);
    });
  });
  cudaStreamSynchronize(stream);
  report("cudaMallocAsync+FreeAsync", r);
  at_depth(depth, [&] {
    r = measure(rounds, 200, [] {
      cudaStream_t s;
      cudaStreamCreate(&s);
      cudaStreamDestroy(s);
    });
  });
  report("cudaStreamCreate+Destroy", r);
  at_depth(depth, [&] {
    r = measure(rounds, 1000, [] {
      cudaEvent_t e;
      cudaEventCreate(&e);
      cudaEventDestroy(e);
    });
  });
  report("cudaEventCreate+Destroy", r);
  at_depth(depth, [&] {
    r = measure(rounds, 20, [] {
      void* p;
      cudaMallocHost(&p, 64 << 10);
      cudaFreeHost(p);
    });
  });
  report("cudaMallocHost+FreeHost_64K", r);
  cudaStreamDestroy(stream);
  return 0;
}
