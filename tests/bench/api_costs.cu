// Per-call costs of the CUDA calls cudaleak intercepts (and of starting a
// thread), made from a stack of a chosen depth (capture cost grows with it). Prints one line per operation:
//   NAME DEPTH median_ns_per_op
// Usage: bench_api_costs DEPTH [ROUNDS [THREADS]]   (also: bench_api_costs memory N)
// With THREADS > 1 every operation runs in that many threads at once, each
// from its own stack of DEPTH frames; the line gives the median over the
// threads of each thread's cost per operation. The last line counts the
// process's context switches and threads, which tell a CPU shared with
// other threads (the driver's, cudaleak's) from a slower call.
// BENCH_ALTERNATE=1 under a cudaleak built with -DCUDALEAK_PHASE_TIMING=ON
// (one thread): rounds alternate between tracked and passed through
// (cudaleak_phase_tracking), and each line adds the passed-through median and
// the difference: what tracking adds, measured in one process.
#include <cuda_runtime.h>

#include <dlfcn.h>
#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using Clock = std::chrono::steady_clock;

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// BENCH_ALTERNATE: cudaleak's switch between tracked and passed-through rounds.
static void (*g_set_tracking)(int) = nullptr;
static double g_passthrough = 0;  // the passed-through median of the last measurement

// Runs `round` (which returns its cost per operation) `rounds` times; the
// median. Alternating, as many passed-through rounds in between, their median
// in g_passthrough.
static double rounds_median(int rounds, const std::function<double()>& round) {
  std::vector<double> tracked, passed;
  for (int r = 0; r < (g_set_tracking ? 2 * rounds : rounds); ++r) {
    bool on = r % 2 == 0 || !g_set_tracking;
    if (g_set_tracking) g_set_tracking(on);
    (on ? tracked : passed).push_back(round());
  }
  if (g_set_tracking) g_set_tracking(1), g_passthrough = median(passed);
  return median(tracked);
}

// Runs `op` `per_round` times per round; the median of the rounds' mean cost.
static double measure(int rounds, int per_round, const std::function<void()>& op) {
  return rounds_median(rounds, [&] {
    auto t0 = Clock::now();
    for (int i = 0; i < per_round; ++i) op();
    return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / per_round;
  });
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

// Runs `body` in `threads` threads started together (one: in this thread);
// each returns its cost per operation, and the median of them is returned.
static double in_threads(int threads, const std::function<double()>& body) {
  if (threads <= 1) return body();
  std::vector<double> costs(threads);
  std::atomic<int> ready{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < threads) std::this_thread::yield();
      costs[t] = body();
    });
  for (auto& th : pool) th.join();
  return median(costs);
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
  int threads = argc > 3 ? std::max(1, std::atoi(argv[3])) : 1;
  // One operation measured from DEPTH frames down, in every thread.
  auto timed = [&](int per_round, const std::function<void()>& op) {
    return in_threads(threads, [&] {
      double cost = 0;
      at_depth(depth, [&] { cost = measure(rounds, per_round, op); });
      return cost;
    });
  };
  if (threads == 1 && std::getenv("BENCH_ALTERNATE"))
    g_set_tracking = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "cudaleak_phase_tracking"));
  auto report = [&](const char* name, double ns) {
    if (g_set_tracking)
      std::printf("%-28s %3d %10.0f %10.0f %8.0f\n", name, depth, ns, g_passthrough, ns - g_passthrough);
    else std::printf("%-28s %3d %10.0f\n", name, depth, ns);
  };
  double r;

  for (size_t bytes : {size_t(256), size_t(1) << 20}) {
    // Allocations and frees timed apart: 200 of each per round.
    std::vector<double> alloc_costs(threads), free_costs(threads);
    double alloc_pass = 0;
    std::atomic<int> slot{0};
    in_threads(threads, [&] {
      int me = slot.fetch_add(1);
      std::vector<void*> ptrs(200);
      double free_cost = 0;
      // Allocations and frees are two measurements of one round each.
      for (bool allocations : {true, false}) {
        double cost = rounds_median(rounds, [&] {
          double alloc_ns = 0, free_ns = 0;
          at_depth(depth, [&] {
            auto t0 = Clock::now();
            for (auto& p : ptrs) cudaMalloc(&p, bytes);
            auto t1 = Clock::now();
            for (auto p : ptrs) cudaFree(p);
            auto t2 = Clock::now();
            alloc_ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / double(ptrs.size());
            free_ns = std::chrono::duration<double, std::nano>(t2 - t1).count() / double(ptrs.size());
          });
          return allocations ? alloc_ns : free_ns;
        });
        if (allocations) alloc_costs[me] = cost, alloc_pass = g_passthrough;
        else free_cost = cost;
      }
      free_costs[me] = free_cost;
      return 0.0;
    });
    double free_pass = g_passthrough;
    g_passthrough = alloc_pass;
    report(bytes == 256 ? "cudaMalloc_256B" : "cudaMalloc_1MiB", median(alloc_costs));
    g_passthrough = free_pass;
    report(bytes == 256 ? "cudaFree_256B" : "cudaFree_1MiB", median(free_costs));
  }
  r = in_threads(threads, [&] {
    cudaStream_t stream;  // one per thread, as a data loader's workers have
    cudaStreamCreate(&stream);
    double cost = 0;
    at_depth(depth, [&] {
      cost = measure(rounds, 1000, [&] {
        void* p;
        cudaMallocAsync(&p, 4096, stream);
        cudaFreeAsync(p, stream);
      });
    });
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
    return cost;
  });
  report("cudaMallocAsync+FreeAsync", r);
  r = timed(200, [] {
    cudaStream_t s;
    cudaStreamCreate(&s);
    cudaStreamDestroy(s);
  });
  report("cudaStreamCreate+Destroy", r);
  r = timed(1000, [] {
    cudaEvent_t e;
    cudaEventCreate(&e);
    cudaEventDestroy(e);
  });
  report("cudaEventCreate+Destroy", r);
  r = timed(20, [] {
    void* p;
    cudaMallocHost(&p, 64 << 10);
    cudaFreeHost(p);
  });
  report("cudaMallocHost+FreeHost_64K", r);
  // Thread starts: cudaleak notes which threads CUDA's libraries start
  // (runtime/library_threads.h), by the creator; std::thread's creator is
  // found by a stack walk.
  r = timed(50, [] {
    pthread_t t;
    pthread_create(
        &t, nullptr, [](void*) -> void* { return nullptr; }, nullptr);
    pthread_join(t, nullptr);
  });
  report("thread_pthread_create+join", r);
  r = timed(50, [] { std::thread([] {}).join(); });
  report("thread_std::thread+join", r);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  long tasks = std::distance(std::filesystem::directory_iterator("/proc/self/task"), {});
  std::printf("process bench_threads %d tasks %ld voluntary_switches %ld involuntary_switches %ld\n", threads, tasks,
              usage.ru_nvcsw, usage.ru_nivcsw);
  return 0;
}
