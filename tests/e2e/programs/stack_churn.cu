// 2^bits distinct call stacks, each allocating and freeing at once: a server
// whose call paths keep changing. Prints the growth of the resident set over
// the churn (peak minus the size after one warm-up allocation), with and
// without cudaleak (tests/cases/runtime/stack_churn.sh, docs/performance.md).
// Leaks an allocation and an event before the churn and an allocation after,
// whose stacks the report must still name.
// Usage: stack_churn [BITS (default 20)]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

void* g_p = nullptr;

long status_kb(const char* field) {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  const size_t n = std::strlen(field);
  while (std::fgets(line, sizeof line, f))
    if (std::strncmp(line, field, n) == 0) kb = std::atol(line + n);
  std::fclose(f);
  return kb;
}

__attribute__((noinline)) void allocate_and_free() {
  cudaMalloc(&g_p, 256);
  cudaFree(g_p);
  asm volatile("");
}

// The path to the allocation spells the counter in binary: at each level
// step<0> or step<1> calls the next, so its return address (in the caller's
// body) is one bit of the stack's name.
using Step = void (*)(unsigned long, int);
template <int Bit>
__attribute__((noinline)) void step(unsigned long i, int level);
constexpr Step kSteps[2] = {step<0>, step<1>};
template <int Bit>
__attribute__((noinline)) void step(unsigned long i, int level) {
  if (level == 0) allocate_and_free();
  else kSteps[(i >> (level - 1)) & 1](i, level - 1);
  asm volatile("");  // no tail call: every level keeps its frame
}

// An event is off the memory timeline, whose sites hold their stacks: only
// its record (in this thread's window of the registry) holds this one.
__attribute__((noinline)) void leak_before_churn() {
  void* p = nullptr;
  cudaMalloc(&p, 1 << 20);
  cudaEvent_t event;
  cudaEventCreate(&event);
  asm volatile("");
}
__attribute__((noinline)) void leak_after_churn() {
  void* p = nullptr;
  cudaMalloc(&p, 2 << 20);
  asm volatile("");
}

}  // namespace

int main(int argc, char** argv) {
  const int bits = argc > 1 ? std::atoi(argv[1]) : 20;
  if (bits < 1 || bits > 30) return 2;
  allocate_and_free();  // the runtime, the driver and cudaleak set up
  leak_before_churn();
  const long before = status_kb("VmRSS:");
  for (unsigned long i = 0; i < (1ul << bits); ++i) kSteps[i >> (bits - 1) & 1](i, bits - 1);
  leak_after_churn();
  const long peak = status_kb("VmHWM:");
  std::printf("stacks=%lu rss_before_kb=%ld peak_rss_kb=%ld rss_growth_kb=%ld\n", 1ul << bits, before, peak,
              peak - before);
  return 0;
}
