#include "interpose/base/phase_timer.h"

#if defined(CUDALEAK_PHASE_TIMING) && defined(__x86_64__)

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace cudaleak::phase_timing {

namespace {

void read_switches(Switches& s) {
  const char* phases = getenv("CUDALEAK_PHASES");
  s.timing = !(phases && strcmp(phases, "off") == 0);
  if (const char* skip = getenv("CUDALEAK_PHASE_SKIP")) {
    s.skip_track = strstr(skip, "track") != nullptr;
    s.skip_capture = strstr(skip, "capture") != nullptr;
    s.skip_clock = strstr(skip, "clock") != nullptr;
    s.skip_registry = strstr(skip, "registry") != nullptr;
  }
  if (const char* touch = getenv("CUDALEAK_PHASE_TOUCH")) s.touch_pages = std::clamp(atoi(touch), 0, 256);
}

alignas(4096) volatile char g_touched[256 * 4096];

}  // namespace

Switches g_switches;
namespace {
[[maybe_unused]] const bool g_switches_read = (read_switches(g_switches), true);
}  // namespace

void touch_pages() {
  // A different line of each page, so that the lines do not share cache sets.
  for (int i = 0; i < g_switches.touch_pages; ++i) (void)g_touched[i * 4096 + (i % 64) * 64];
}

namespace {

// Cycles in 4-cycle buckets up to 4 K cycles, then one bucket per power of
// two: a median is read from the merged buckets, no sample is kept.
constexpr int kLinear = 1024, kLinearWidth = 4, kLog = 48;
constexpr int kBuckets = kLinear + kLog;
constexpr int kThreads = 64;  // threads past that many are not timed

struct alignas(64) Histograms {
  uint32_t count[int(Phase::Count)][kBuckets];
};
Histograms g_threads[kThreads];
constexpr int kHooks = 512;
// Per entry point, the cycles a hook added to its real call, in 8-cycle
// buckets up to 2 K cycles, then one per power of two (virtual memory; only
// the entry points called are touched).
constexpr int kAddedLinear = 256, kAddedBuckets = kAddedLinear + 24;
struct alignas(64) HookSums {
  uint64_t calls[kHooks], total[kHooks], real[kHooks];
  uint32_t added[kHooks][kAddedBuckets];
};
int added_bucket(uint64_t c) {
  if (c < uint64_t(kAddedLinear * 8)) return int(c / 8);
  return kAddedLinear + std::min(63 - __builtin_clzll(c) - 11, kAddedBuckets - kAddedLinear - 1);
}
uint64_t added_cycles(int b) {
  return b < kAddedLinear ? uint64_t(b) * 8 + 4 : (uint64_t(2048) << (b - kAddedLinear)) * 3 / 2;
}
HookSums g_hooks[kThreads];
std::atomic<const char* (*)(int)> g_hook_name{nullptr};
std::atomic<int> g_next_thread{0};
__attribute__((tls_model("initial-exec"))) thread_local int t_slot = -1;

uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}
// The counter's rate, from the process's start to its end.
const uint64_t g_start_cycles = cycles();
const uint64_t g_start_ns = monotonic_ns();

int bucket_of(uint64_t c) {
  if (c < uint64_t(kLinear * kLinearWidth)) return int(c / kLinearWidth);
  int log = 63 - __builtin_clzll(c) - 12;  // 4096 -> 0
  return kLinear + std::min(log, kLog - 1);
}
uint64_t bucket_cycles(int b) {
  return b < kLinear ? uint64_t(b) * kLinearWidth + kLinearWidth / 2 : (uint64_t(4096) << (b - kLinear)) * 3 / 2;
}

const char* name(Phase p) {
  static const char* const names[] = {"hook_entry", "real_call",     "placement",   "created",
                                      "notify",     "capture",       "stamp",       "insert",
                                      "timeline",   "begin_release", "end_release", "empty_scope"};
  static_assert(sizeof(names) / sizeof(names[0]) == size_t(Phase::Count));
  return names[int(p)];
}

int thread_slot() {
  if (t_slot < 0) t_slot = g_next_thread.fetch_add(1, std::memory_order_relaxed);
  return t_slot;
}

// The entry points called most, with their mean cost: whole hook, the real
// call, and what the hook added.
void print_hooks(int threads, double ns_per_cycle) {
  struct Line {
    int id;
    uint64_t calls, total, real, added_p50;
  };
  std::vector<Line> lines;
  for (int id = 0; id < kHooks; ++id) {
    Line l{id, 0, 0, 0, 0};
    for (int t = 0; t < threads; ++t)
      l.calls += g_hooks[t].calls[id], l.total += g_hooks[t].total[id], l.real += g_hooks[t].real[id];
    if (!l.calls) continue;
    uint64_t seen = 0;
    for (int b = 0; b < kAddedBuckets && seen <= l.calls / 2; ++b) {
      for (int t = 0; t < threads; ++t) seen += g_hooks[t].added[id][b];
      l.added_p50 = added_cycles(b);
    }
    lines.push_back(l);
  }
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.calls > b.calls; });
  fprintf(stderr, "hook  %-28s %10s %10s %10s %10s %10s\n", "name", "calls", "mean_ns", "real_ns", "added_ns",
          "added_p50");
  auto name = g_hook_name.load();
  for (size_t i = 0; i < lines.size() && i < 16; ++i) {
    const Line& l = lines[i];
    double n = double(l.calls);
    fprintf(stderr, "hook  %-28s %10llu %10.0f %10.0f %10.0f %10.0f\n", name ? name(l.id) : "?",
            (unsigned long long)l.calls, double(l.total) / n * ns_per_cycle, double(l.real) / n * ns_per_cycle,
            double(l.total - l.real) / n * ns_per_cycle, double(l.added_p50) * ns_per_cycle);
  }
}

__attribute__((destructor)) void print_medians() {
  const double ns_per_cycle = double(monotonic_ns() - g_start_ns) / double(cycles() - g_start_cycles);
  int threads = std::min(g_next_thread.load(), kThreads);
  if (threads == 0 || !g_switches.timing) return;
  // What a phase's own two counter reads add to it: every p50 below includes
  // it once, and an enclosing phase once more per phase nested in it.
  for (int i = 0; i < 10000; ++i) {
    PhaseScope empty(Phase::EmptyScope);
    asm volatile("" ::: "memory");
  }
  fprintf(stderr, "phase %-14s %10s %8s %8s %8s %8s   (pid %d, %d threads, %.3f ns/cycle)\n", "name", "calls", "p10_ns",
          "p50_ns", "p90_ns", "p99_ns", int(getpid()), threads, ns_per_cycle);
  for (int p = 0; p < int(Phase::Count); ++p) {
    uint64_t merged[kBuckets] = {}, total = 0;
    for (int t = 0; t < threads; ++t)
      for (int b = 0; b < kBuckets; ++b) merged[b] += g_threads[t].count[p][b], total += g_threads[t].count[p][b];
    if (total == 0) continue;
    auto at = [&](double q) {
      uint64_t want = uint64_t(q * double(total)), seen = 0;
      for (int b = 0; b < kBuckets; ++b)
        if ((seen += merged[b]) > want) return double(bucket_cycles(b)) * ns_per_cycle;
      return 0.0;
    };
    fprintf(stderr, "phase %-14s %10llu %8.0f %8.0f %8.0f %8.0f\n", name(Phase(p)), (unsigned long long)total, at(0.10),
            at(0.50), at(0.90), at(0.99));
  }
  print_hooks(threads, ns_per_cycle);
}

}  // namespace

void add(Phase phase, uint64_t c) {
  if (!g_switches.timing) return;
  int slot = thread_slot();
  if (slot < kThreads) ++g_threads[slot].count[int(phase)][bucket_of(c)];
}

void add_hook(int id, uint64_t total, uint64_t real) {
  if (!g_switches.timing) return;
  int slot = thread_slot();
  if (slot >= kThreads || id < 0 || id >= kHooks) return;
  HookSums& h = g_hooks[slot];
  ++h.calls[id], h.total[id] += total, h.real[id] += real;
  ++h.added[id][added_bucket(total - real)];
}

void name_hooks(const char* (*name)(int)) { g_hook_name.store(name); }

}  // namespace cudaleak::phase_timing

extern "C" __attribute__((visibility("default"))) void cudaleak_phase_tracking(int on) {
  cudaleak::phase_timing::g_switches.skip_track.store(!on, std::memory_order_relaxed);
}

#endif
