// A process that never fails and leaks slowly (issue 56): every step it
// churns through buffers it frees again (`churn_step`), holds a fixed
// working set allocated once at start (`load_weights`), and keeps one small
// buffer it never frees (`leak_a_little`). Usage: slow_leak SECONDS [STEP_MS]
// [ready-file]: runs about SECONDS, a step every STEP_MS (20 by default);
// writes its pid to the file once the first leak is made, so a test can
// watch it while it runs.
#include <cuda.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#include "../../common/primary_context.h"

namespace {

__attribute__((noinline)) CUdeviceptr load_weights(size_t bytes) {
  CUdeviceptr p;
  CHECK(cuMemAlloc(&p, bytes));
  return p;
}

__attribute__((noinline)) void churn_step(size_t bytes) {
  CUdeviceptr a, b;
  CHECK(cuMemAlloc(&a, bytes));
  CHECK(cuMemAlloc(&b, bytes / 2));
  CHECK(cuMemFree(a));
  CHECK(cuMemFree(b));
}

__attribute__((noinline)) void leak_a_little(std::vector<CUdeviceptr>& kept, size_t bytes) {
  CUdeviceptr p;
  CHECK(cuMemAlloc(&p, bytes));
  kept.push_back(p);
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 5;
  const int step_ms = argc > 2 ? std::atoi(argv[2]) : 20;
  const char* ready = argc > 3 ? argv[3] : nullptr;
  use_primary_context();
  CUdeviceptr weights = load_weights(256 << 20);
  std::vector<CUdeviceptr> kept;
  const auto start = std::chrono::steady_clock::now();
  for (int step = 0; std::chrono::steady_clock::now() - start < std::chrono::duration<double>(seconds); ++step) {
    churn_step(64 << 20);
    if (step % 5 == 0) leak_a_little(kept, 1 << 20);
    if (step == 0 && ready)
      if (FILE* f = std::fopen(ready, "w")) {
        std::fprintf(f, "%d\n", int(getpid()));
        std::fclose(f);
      }
    std::this_thread::sleep_for(std::chrono::milliseconds(step_ms));
  }
  CHECK(cuMemFree(weights));
  return 0;  // `kept` is never freed
}
