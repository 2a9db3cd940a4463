#include "interpose/track/tracker.h"

#include <dlfcn.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "interpose/track/backtrace.h"
#include "interpose/track/bound_context.h"
#include "interpose/track/registry.h"
#include "interpose/track/stack_cache.h"
#include "interpose/track/stack_collection.h"
#include "interpose/track/stack_depot.h"
#include "interpose/track/timeline.h"
#include "interpose/track/tracker_lend.h"
#include "interpose/track/tracker_state.h"
#include "common/frame_tags.h"
#include "interpose/base/phase_timer.h"
#include "interpose/base/real_dlsym.h"
#include "interpose/pyframes/python_frames.h"
#include "interpose/base/state.h"
#include "interpose/base/hot_path.h"

namespace cudaleak::tracker {

namespace {

std::atomic<void (*)()> g_creation_observer{nullptr};
void notify_creation() {
  if (auto observer = g_creation_observer.load(std::memory_order_acquire)) observer();
}

State* g_state = nullptr;  // tracker_state.h: bound by the runtime object before any hook records

uint64_t ns_of(const timespec& ts) { return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec); }

uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ns_of(ts);
}

State& state() { return *g_state; }

// A record's time since the start. Off the timeline (an event, a stream, a
// handle) it is read only as when the resource was made: the coarse clock,
// the kernel's last tick (1-4 ms resolution), a few ns against 36-61 ns for
// CLOCK_MONOTONIC on a virtual machine (docs/performance.md). Memory gets the
// precise clock until the run is long enough that the timeline's points (at
// most 512 per device over the whole run) are coarser than a tick, then the
// coarse one too. The coarse clock lags by up to a tick: never before the start.
CUDALEAK_HOT_PATH uint64_t record_time_ns(bool on_timeline) {
  State& s = state();
  timespec ts;
  if ((!on_timeline || s.memory_coarse.load(std::memory_order_relaxed)) &&
      clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) == 0) {
    const uint64_t now = ns_of(ts);
    return now > s.start_ns ? now - s.start_ns : 0;
  }
  // Memory in a short run: one precise read, not a coarse one before it.
  const uint64_t elapsed = monotonic_ns() - s.start_ns;
  if (on_timeline && elapsed >= s.coarse_after_ns) s.memory_coarse.store(true, std::memory_order_relaxed);
  return elapsed;
}

__attribute__((tls_model("initial-exec"))) thread_local uint32_t t_tid = 0;
__attribute__((tls_model("initial-exec"))) thread_local int t_library_depth = 0;
__attribute__((tls_model("initial-exec"))) thread_local uint32_t t_library_scope = 0;

CUDALEAK_HOT_PATH uint32_t thread_id() {
  if (!t_tid) t_tid = uint32_t(syscall(SYS_gettid));
  return t_tid;
}

// Driver functions the tracker itself needs, looked up through the real
// cuGetProcAddress when we have it, else in the loaded driver.
}  // namespace

void* driver_function(const char* name, int version) {
  if (auto gpa = reinterpret_cast<PFN_cuGetProcAddress_v12000>(real_function(HookId::cuGetProcAddress_v2))) {
    void* fn = nullptr;
    if (gpa(name, &fn, version, CU_GET_PROC_ADDRESS_DEFAULT, nullptr) == CUDA_SUCCESS && fn) return fn;
  }
  if (void* lib = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_LAZY)) {
    void* fn = real_dlsym() ? real_dlsym()(lib, name) : nullptr;
    dlclose(lib);
    return fn;
  }
  return nullptr;
}

namespace {

// With `may_collect` (the caller holds no lock) a stack collection that the
// depot asked for runs here, after the stack was interned: ids handed out in
// the epoch it ends are kept (stack_depot.h).
CUDALEAK_HOT_PATH uint32_t capture(bool may_collect) {
  uint64_t ips[kMaxStackDepth];
  StackMemo* memo = nullptr;
  StackDepot& depot = state().stacks;
  // A memo is good while the epoch it was stored in lasts: a collection that
  // may forget its stack moves the epoch on first.
  const uint32_t epoch = depot.epoch();
  // Python frames differ from call to call: with them, the native frames
  // alone do not name the stack.
  const bool python = options().python_frames && pyframes::active();
  size_t n = capture_stack(ips, options().stack_depth, t_library_depth > 0, &memo, python ? kMemoUnwanted : epoch);
  if (python) {
    n = pyframes::interleave(ips, n, kMaxStackDepth);
    memo = nullptr;
  }
  if (memo && memo->epoch == epoch) return memo->id;
  uint32_t id = depot.intern(ips, n);
  // The epoch read before intern: if one began since, the memo is stale at once.
  if (memo) *memo = StackMemo{id, epoch};
  if (may_collect && depot.collection_due()) [[unlikely]]
    collect_stacks(state());
  return id;
}

void add_note(report::NoteType type, HookId api, uint64_t handle, CUresult result) {
  uint32_t stack = capture(true);
  State& s = state();
  std::lock_guard lock(s.side_mutex);
  ++s.notes_total;
  auto key = std::make_tuple(type, api, stack);
  auto it = s.notes.find(key);
  if (it != s.notes.end()) {
    ++it->second.count;
  } else if (s.notes.size() < kMaxDistinctNotes) {
    s.notes.emplace(key, report::RawNote{type, hook_name(api), handle, int(result), stack, 1});
  }
}

// Memory that went away leaves the timeline.
CUDALEAK_HOT_PATH void forget_bytes(const Record& r) {
  if (!on_timeline(r.kind, r.bytes)) return;  // streams and events first: no pool to look at
  if (r.pool) state().pools.freed(r.pool, r.bytes);
  state().timeline.add(r.device, r.kind, r.stack_id, -int64_t(r.bytes), record_time_ns(true));
}

// The driver's own answer: a call of cudaleak's own, made only where the
// learned context cannot be right (bound_context.h) or when check_context asks
// for the comparison.
uint64_t asked_context() {
  static std::atomic<PFN_cuCtxGetCurrent_v4000> get_current{nullptr};
  auto cur = cached_driver_function(get_current, "cuCtxGetCurrent", 4000);
  CUcontext ctx = nullptr;
  if (!cur || cur(&ctx) != CUDA_SUCCESS) return 0;
  return reinterpret_cast<uint64_t>(ctx);
}

// The driver's device of the calling thread's current context, -1 when none.
int driver_device() {
  static std::atomic<PFN_cuCtxGetDevice_v2000> get_device{nullptr};
  CUdevice dev = -1;
  auto get = cached_driver_function(get_device, "cuCtxGetDevice", 2000);
  return get && get(&dev) == CUDA_SUCCESS ? dev : -1;
}

}  // namespace

CUDALEAK_HOT_PATH Placement current_placement() {
  PhaseScope timed(Phase::Placement);
  Placement p;
  bound::Current learned = bound::current();
  p.context = learned.context;
  // A tracked call succeeded, so the driver had a context for it: a thread
  // with none learned bound it by a path cudaleak does not see (or used an API
  // that needs none, such as cuLibraryLoadData), and asking costs one call.
  if (!learned.known || !learned.context) {
    p.context = asked_context();
    p.context_asked = p.context != 0;
    if (p.context) bound::set_current(p.context);
  }
  if (!p.context) return p;
  p.device = bound::device_of(p.context);
  if (p.device < 0) {
    p.device = driver_device();
    bound::learn_device(p.context, p.device);
  }
  return p;
}

namespace {

// check_context: the placement learned from intercepted calls against the
// driver's answer, as a note where they differ (docs/validation.md).
void check_placement(HookId api, Kind kind, const Placement& where) {
  if (kind == Kind::Context || api == HookId::cuGreenCtxStreamCreate) return;  // placed on their own context
  state().placements_checked.fetch_add(1, std::memory_order_relaxed);
  if (where.context_asked) {
    state().contexts_unseen.fetch_add(1, std::memory_order_relaxed);
    add_note(report::NoteType::ContextUnseen, api, where.context, CUDA_SUCCESS);
  }
  std::optional<report::NoteType> wrong;
  if (asked_context() != where.context) wrong = report::NoteType::ContextMismatch;
  else if (where.context && driver_device() != where.device) wrong = report::NoteType::DeviceMismatch;
  if (!wrong) return;
  state().placements_wrong.fetch_add(1, std::memory_order_relaxed);
  add_note(*wrong, api, where.context, CUDA_SUCCESS);
}

}  // namespace

PlacementChecks placement_checks() {
  return {state().placements_checked.load(std::memory_order_relaxed),
          state().placements_wrong.load(std::memory_order_relaxed),
          state().contexts_unseen.load(std::memory_order_relaxed)};
}

void set_creation_observer(void (*observer)()) { g_creation_observer.store(observer, std::memory_order_release); }

CUDALEAK_HOT_PATH void created(HookId api, Kind kind, Space space, uint64_t handle, uint64_t bytes, Placement where,
                               uint64_t stream) {
  PhaseScope timed(Phase::Created);
  guarded("recording a resource", [&] {
    {
      PhaseScope timed_notify(Phase::Notify);
#if defined(CUDALEAK_PHASE_TIMING) && defined(__x86_64__)
      phase_timing::touch_pages();
#endif
      if (options().check_context) check_placement(api, kind, where);
      notify_creation();
    }
    Record r;
    {
      PhaseScope timed_capture(Phase::Capture);
      r.stack_id = CUDALEAK_PHASE_SKIP(capture) ? 1 : capture(true);  // outside every tracker lock
    }
    {
      PhaseScope timed_stamp(Phase::Stamp);
      r.handle = handle;
      r.bytes = bytes;
      r.sequence = state().sequence.fetch_add(1, std::memory_order_relaxed) + 1;
      if (CUDALEAK_PHASE_SKIP(clock)) r.time_ns = 0;
      else r.time_ns = record_time_ns(on_timeline(kind, bytes));
      r.context = where.context;
      r.stream = stream;
      r.thread = thread_id();
      r.device = int8_t(where.device);
      r.kind = kind;
      r.space = space;
      r.api = uint16_t(api);
      r.scope = t_library_scope;
      r.pool = where.pool;
    }
    Record replaced;
    // The driver handed out a handle we still hold: it was released by a path
    // cudaleak does not see, so the old record's bytes leave the timeline.
    bool was_replaced;
    {
      PhaseScope timed_insert(Phase::Insert);
      was_replaced = !CUDALEAK_PHASE_SKIP(registry) && state().registry.insert(r, &replaced);
    }
    if (was_replaced) forget_bytes(replaced);
    if (on_timeline(kind, bytes)) {
      PhaseScope timed_timeline(Phase::Timeline);
      state().timeline.add(r.device, kind, r.stack_id, int64_t(bytes), r.time_ns);
    }
  });
}

CUDALEAK_HOT_PATH PendingRelease begin_release(Space space, uint64_t handle) {
  PhaseScope timed(Phase::BeginRelease);
  PendingRelease p;
  p.space = space;
  p.handle = handle;
  if (CUDALEAK_PHASE_SKIP(registry)) return p;
  guarded("recording a release", [&] { p.found = state().registry.erase(space, handle, &p.record); });
  return p;
}

CUDALEAK_HOT_PATH void end_release(HookId api, PendingRelease& p, CUresult result) {
  PhaseScope timed(Phase::EndRelease);
  if (CUDALEAK_PHASE_SKIP(registry)) return;
  guarded("recording a release", [&] {
    if (p.found) {
      if (result == CUDA_SUCCESS) forget_bytes(p.record);
      else state().registry.insert(p.record);  // still alive: the driver refused to release it
      return;
    }
    if (result == CUDA_SUCCESS || result == CUDA_ERROR_INVALID_VALUE || result == CUDA_ERROR_INVALID_HANDLE ||
        result == CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED)
      add_note(report::NoteType::UnknownRelease, api, p.handle, result);
  });
}

void reference_or_create(HookId api, Kind kind, Space space, uint64_t handle) {
  bool retained = false;
  guarded("recording a reference", [&] { retained = state().registry.retain(space, handle); });
  if (!retained) created(api, kind, space, handle, 0, current_placement());
}

void reference_added(Space space, uint64_t handle) {
  guarded("recording a reference", [&] { state().registry.retain(space, handle); });
}

void reference_dropped(HookId api, Space space, uint64_t handle, CUresult result) {
  guarded("recording a release", [&] {
    Record removed;
    bool gone = false;
    if (result == CUDA_SUCCESS && state().registry.release_reference(space, handle, &removed, &gone)) {
      if (gone) forget_bytes(removed);
      return;
    }
    add_note(report::NoteType::UnknownRelease, api, handle, result);
  });
}

LibraryCall::LibraryCall() : outermost_(t_library_depth++ == 0) {
  if (outermost_) t_library_scope = state().library_scopes.fetch_add(1, std::memory_order_relaxed) + 1;
}

void LibraryCall::on_behalf_of(Space space, uint64_t handle) {
  if (!outermost_ || !handle) return;
  guarded("finding a library handle", [&] {
    uint32_t scope = 0;
    state().registry.update(space, handle, [&](Record& r) { scope = r.scope; });
    if (scope) t_library_scope = scope;
  });
}

LibraryCall::~LibraryCall() {
  if (--t_library_depth == 0) t_library_scope = 0;
}

void own_blocks(void (*visit)(const void* block, void* context), void* context) {
  state().registry.for_each_window([&](const void* window) { visit(window, context); });
}

report::RawSnapshot snapshot() {
  State& s = state();
  report::RawSnapshot out;
  // Names by index: every hook's, then "malloc" (creator_name), then the
  // ways contexts were torn down, as met.
  for (uint16_t api = 0; api <= uint16_t(HookId::Count); ++api) out.names.push_back(creator_name(api));
  out.resources = s.registry.snapshot();
  std::lock_guard lock(s.side_mutex);
  for (const auto& [r, reason] : s.torn_down) {
    Record& x = out.resources.emplace_back(r);
    x.teardown = out.intern(reason);
  }
  for (const auto& [key, note] : s.notes) out.notes.push_back(note);
  out.notes_total = s.notes_total;
  for (const auto& [device, p] : s.primary)
    out.primary_contexts.push_back(report::PrimaryContext{device, p.retains, p.releases, p.resets, p.outstanding});
  for (const auto& [key, v] : s.reservations) out.reservations.push_back(v);
  out.pools = s.pools.snapshot();
  if (!options().device_heap) out.device_malloc_modules = s.device_malloc_modules;
  return out;
}

size_t visit_timeline_for_crash(Timeline::CrashVisitor& v) { return state().timeline.visit_for_crash(v); }

void visit_for_crash(CrashVisitor& v) {
  State& s = state();
  size_t skipped = s.registry.visit_if_free([&](const Record& r) { v.resource(r, nullptr); });
  if (skipped) v.skipped("registry shards and threads' windows", skipped);
  if (Registry::try_lock_briefly(s.side_mutex)) {
    for (const auto& [r, reason] : s.torn_down) v.resource(r, reason);
    for (const auto& [key, note] : s.notes) v.note(note);
    v.totals(s.notes_total, monotonic_ns() - s.start_ns);
    s.side_mutex.unlock();
  } else {
    v.skipped("torn-down resources and notes", 1);
    v.totals(0, monotonic_ns() - s.start_ns);
  }
  if (!s.stacks.visit_if_free([&](uint32_t id, std::span<const uint64_t> f) { v.stack(id, f); },
                              &Registry::try_lock_briefly<std::mutex>))
    v.skipped("stacks", 1);
}

std::vector<uint64_t> stack(uint32_t id) { return state().stacks.get(id); }
std::span<const uint64_t> held_stack(uint32_t id) { return state().stacks.get_held(id); }
StacksHeld::StacksHeld() { state().stacks.hold(); }
StacksHeld::~StacksHeld() { state().stacks.release_hold(); }
void configure_stack_collection(size_t floor, void (*holders)(std::vector<uint32_t>& out)) {
  set_stack_holders(holders);
  state().stacks.set_floor(floor);
}
// Runtime callers may hold their own locks: no collection here.
uint32_t capture_here() { return capture(false); }

report::Timeline timeline(std::vector<std::vector<Timeline::SiteKey>>* site_keys) {
  return state().timeline.snapshot(site_keys);
}
std::map<int, std::vector<Timeline::PeakGroup>> peak_groups() { return state().timeline.peak_groups(); }
void begin_window(uint64_t limit) { state().timeline.begin_window(limit); }
std::vector<Timeline::WindowPeak> window_peaks() { return state().timeline.window_peaks(); }
std::map<int, std::vector<report::SiteGrowth>> site_growth() { return state().timeline.growth(elapsed_ns()); }
uint64_t elapsed_ns() { return monotonic_ns() - state().start_ns; }
uint32_t calling_thread() { return thread_id(); }
uint64_t elapsed_ns_at(uint64_t monotonic) { return monotonic > state().start_ns ? monotonic - state().start_ns : 0; }
uint64_t start_unix_ns() { return state().start_unix_ns; }
const char* run_id() { return state().run_id; }
uint64_t current_sequence() { return state().sequence.load(std::memory_order_relaxed); }
size_t live_count() { return state().registry.size(); }

// What tracker.cpp lends to the tracker's side records (tracker_lend.h).
State& bound_state() { return state(); }
uint32_t capture_stack_id() { return capture(true); }
uint64_t memory_time_ns() { return record_time_ns(true); }
void record_note(report::NoteType type, HookId api, uint64_t handle, CUresult result) {
  add_note(type, api, handle, result);
}
void forget_memory(const Record& r) { forget_bytes(r); }
void creation_seen() { notify_creation(); }

State::State() {
  start_ns = monotonic_ns();
  // The timeline's points are at least (run length / 1024) apart: past 1024
  // ticks they are coarser than a tick.
  timespec tick;
  if (clock_getres(CLOCK_MONOTONIC_COARSE, &tick) == 0 && tick.tv_sec == 0 && tick.tv_nsec > 0)
    coarse_after_ns = uint64_t(tick.tv_nsec) * 1024;
  timespec wall;
  clock_gettime(CLOCK_REALTIME, &wall);
  start_unix_ns = ns_of(wall);
  new_run_id();
}

void State::new_run_id() {
  uint64_t random = 0;
  if (getrandom(&random, sizeof random, GRND_NONBLOCK) != ssize_t(sizeof random))
    random = monotonic_ns() ^ (uint64_t(reinterpret_cast<uintptr_t>(&random)) << 16);  // no entropy yet: unlikely twice
  std::snprintf(run_id, sizeof run_id, "%d-%llx-%016llx", int(getpid()), static_cast<unsigned long long>(start_unix_ns),
                static_cast<unsigned long long>(random));
}

void bind(State& s) {
  g_state = &s;
  // A record found released unseen when a thread's window spilled (registry.h).
  s.registry.set_replaced_observer(&forget_bytes);
}

void configure_growth(uint64_t interval_ns) { state().timeline.set_growth_interval(interval_ns); }
uint64_t requests_counted() { return state().timeline.requests(); }
void count_requests(uint64_t n) { state().timeline.count_requests(n); }

void State::lock_all() {
  side_mutex.lock();
  pools.mutex().lock();
  stacks.mutex().lock();
  registry.lock_all();
  timeline.lock_all();
}

void State::unlock_all() {
  timeline.unlock_all();
  registry.unlock_all();
  stacks.mutex().unlock();
  pools.mutex().unlock();
  side_mutex.unlock();
}

void State::reset_in_child() {
  stacks.reset_in_child();
  registry.clear();
  pools.clear();
  timeline.clear();
  std::lock_guard lock(side_mutex);
  torn_down.clear();
  notes.clear();
  notes_total = 0;
  primary.clear();
  graphs_with_memory.clear();
  reservations.clear();
  sequence = 0;
  t_tid = 0;
  new_run_id();  // the child reports under its own pid, as a process of its own
}

}  // namespace cudaleak::tracker
