// Where a hook's time goes, for the performance work on a real host
// (docs/performance.md): with -DCUDALEAK_PHASE_TIMING=ON each phase below is
// timed with the cycle counter, per thread, into a histogram, and the
// per-phase medians are printed to stderr at exit. Built without it (the
// default), a PhaseScope is empty and costs nothing.
#pragma once
#include <atomic>
#include <cstdint>

namespace cudaleak {

enum class Phase : uint8_t {
  HookEntry,     // Hook's constructor: lazy init, re-entrancy depth, cuda-seen flag
  RealCall,      // the real driver or library function
  Placement,     // the calling thread's context and device (tracker::current_placement)
  Created,       // tracker::created, whole
  Notify,        // before the record: the context check option, the reporter thread's start
  Capture,       // the stack: cache lookup, or unwind and intern
  Stamp,         // sequence number, clock, thread id, the record's fields
  Insert,        // the registry insert
  Timeline,      // the timeline's add (memory only)
  BeginRelease,  // the registry erase before a release
  EndRelease,    // after it: the timeline, a refused release put back
  EmptyScope,    // a scope around nothing: what timing one phase adds to it (printed at exit)
  Count
};

#if defined(CUDALEAK_PHASE_TIMING) && defined(__x86_64__)

namespace phase_timing {
// CUDALEAK_PHASES=off: no counter is read (the build then runs as the plain
// one, with the switches below). CUDALEAK_PHASE_SKIP=track|capture|clock|registry
// (comma-separated) leaves a part of the work out, so that a pair's cost with
// and without it measures the part together with what it does to the
// driver's caches: track, every hook passes through after the real call;
// capture, every record gets one fixed stack; clock, records carry time 0;
// registry, nothing is inserted or looked up. CUDALEAK_PHASE_TOUCH=N: each
// record also reads one line in each of N fixed pages of its own, so that
// what a larger footprint costs after the driver's work can be measured.
// Read once, at load.
// cudaleak_phase_tracking(0/1), looked up by a benchmark with dlsym, turns
// skip_track on and off while the process runs: tracked and passed-through
// rounds then alternate in one process (tests/bench/api_costs.cu).
struct Switches {
  bool timing = true;
  std::atomic<bool> skip_track{false};
  bool skip_capture = false, skip_clock = false, skip_registry = false;
  int touch_pages = 0;
};
extern Switches g_switches;
// Reads one line in each of g_switches.touch_pages pages.
void touch_pages();
inline uint64_t cycles() { return g_switches.timing ? __builtin_ia32_rdtsc() : 0; }
void add(Phase phase, uint64_t cycles);
// Per entry point: calls, whole-hook cycles and the real call's cycles.
void add_hook(int id, uint64_t total, uint64_t real);
// Names for the entry points' lines (set by the runtime, which knows them).
void name_hooks(const char* (*name)(int id));
}  // namespace phase_timing

class PhaseScope {
 public:
  explicit PhaseScope(Phase phase) : phase_(phase), start_(phase_timing::cycles()) {}
  ~PhaseScope() { phase_timing::add(phase_, phase_timing::cycles() - start_); }
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;

 private:
  Phase phase_;
  uint64_t start_;
};

// One hook call, from its entry to its return; the real call's share is
// counted by `real(cycles)`.
class HookTimer {
 public:
  explicit HookTimer(int id) : id_(id), start_(phase_timing::cycles()) {}
  ~HookTimer() { phase_timing::add_hook(id_, phase_timing::cycles() - start_, real_); }
  HookTimer(const HookTimer&) = delete;
  HookTimer& operator=(const HookTimer&) = delete;
  void real(uint64_t cycles) { real_ += cycles; }

 private:
  int id_;
  uint64_t start_;
  uint64_t real_ = 0;
};

#define CUDALEAK_PHASE_SKIP(part) bool(::cudaleak::phase_timing::g_switches.skip_##part)

#else

#define CUDALEAK_PHASE_SKIP(part) false

class PhaseScope {
 public:
  explicit PhaseScope(Phase) {}
};
class HookTimer {
 public:
  explicit HookTimer(int) {}
  void real(uint64_t) {}
};

#endif

}  // namespace cudaleak
