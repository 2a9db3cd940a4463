// What a clock read costs on this host: CLOCK_MONOTONIC (what memory records
// are stamped with early in a run), CLOCK_MONOTONIC_COARSE (events, streams,
// handles, and memory later: tracker.cpp's record_time_ns), and rdtsc for
// comparison; the coarse clock's resolution and the kernel's clock source.
// Numbers for docs/performance.md. Usage: bench_clock_costs [READS]
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace {
uint64_t now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}
}  // namespace

int main(int argc, char** argv) {
  const long reads = argc > 1 ? std::atol(argv[1]) : 5000000;
  if (reads <= 0) {
    std::fprintf(stderr, "bench_clock_costs: READS must be a positive number\n");
    return 2;
  }
  volatile uint64_t sink = 0;
  const struct {
    const char* name;
    clockid_t id;
  } clocks[] = {{"CLOCK_MONOTONIC", CLOCK_MONOTONIC}, {"CLOCK_MONOTONIC_COARSE", CLOCK_MONOTONIC_COARSE}};
  for (const auto& c : clocks) {
    timespec ts;
    const uint64_t start = now_ns();
    for (long i = 0; i < reads; ++i) {
      clock_gettime(c.id, &ts);
      sink = sink + uint64_t(ts.tv_nsec);
    }
    std::printf("%-24s %6.1f ns\n", c.name, double(now_ns() - start) / double(reads));
  }
#if defined(__x86_64__)
  const uint64_t start = now_ns();
  for (long i = 0; i < reads; ++i) sink = sink + __rdtsc();
  std::printf("%-24s %6.1f ns\n", "rdtsc", double(now_ns() - start) / double(reads));
#endif
  timespec res;
  if (clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0) std::printf("coarse resolution %ld ns\n", res.tv_nsec);
  std::ifstream source("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  if (std::getline(source, name)) std::printf("clock source %s\n", name.c_str());
  return 0;
}
