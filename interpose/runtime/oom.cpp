#include "interpose/runtime/oom.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>

#include "report/write/oom_in_process.h"
#include "common/kinds.h"
#include "interpose/runtime/device_identity.h"
#include "interpose/base/log.h"
#include "interpose/runtime/nvml.h"
#include "interpose/runtime/reporter.h"
#include "interpose/runtime/runtime.h"
#include "interpose/track/backtrace.h"

namespace cudaleak::oom {

namespace {

constexpr size_t kMaxEvents = 32;
constexpr size_t kTopSites = 5;
constexpr size_t kMaxReports = 8;
constexpr uint64_t kReportIntervalNs = 1000000000;  // at most one oom report a second


template <typename Fn>
Fn driver(const char* name, int version) {
  return reinterpret_cast<Fn>(tracker::driver_function(name, version));
}

void measure_device(report::OomEvent& e) {
  if (auto get_info = driver<PFN_cuMemGetInfo_v3020>("cuMemGetInfo", 3020)) {
    size_t free = 0, total = 0;
    if (get_info(&free, &total) == CUDA_SUCCESS) {
      e.device_info = true;
      e.free_bytes = free;
      e.total_bytes = total;
      return;
    }
  }
  // No context current on this thread (XLA binds its contexts only around
  // its own calls): the device's size at least, which needs none.
  if (auto total_mem = driver<PFN_cuDeviceTotalMem_v3020>("cuDeviceTotalMem", 3020)) {
    size_t total = 0;
    if (e.device >= 0 && total_mem(&total, e.device) == CUDA_SUCCESS) e.total_bytes = total;
  }
}

void measure_pools(report::OomEvent& e, const report::RawSnapshot& snap) {
  auto get_attr = driver<PFN_cuMemPoolGetAttribute_v11020>("cuMemPoolGetAttribute", 11020);
  if (!get_attr) return;
  std::vector<std::pair<uint64_t, bool>> pools;
  if (auto get_default = driver<PFN_cuDeviceGetDefaultMemPool_v11020>("cuDeviceGetDefaultMemPool", 11020)) {
    CUmemoryPool pool;
    if (e.device >= 0 && get_default(&pool, e.device) == CUDA_SUCCESS) pools.emplace_back(uint64_t(pool), true);
  }
  for (const auto& r : snap.resources)
    if (r.kind == Kind::Pool && r.device == e.device && !r.torn_down()) pools.emplace_back(r.handle, false);
  for (auto [handle, is_default] : pools) {
    cuuint64_t reserved = 0, used = 0;
    auto pool = reinterpret_cast<CUmemoryPool>(handle);
    if (get_attr(pool, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &reserved) == CUDA_SUCCESS &&
        get_attr(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used) == CUDA_SUCCESS)
      e.pools.push_back(report::PoolUsage{handle, is_default, reserved, used});
  }
}

void measure_others(report::OomEvent& e) {
  CUuuid uuid;
  if (!device_identity::uuid_of(e.device, &uuid)) {
    e.nvml = "device UUID unavailable";
    return;
  }
  e.other_processes = nvml::other_processes(uuid, &e.nvml);
}

// This process's live memory on the device: by kind, by call site, recent vs old.
void measure_process(RawEvent& raw, const report::RawSnapshot& snap) {
  report::OomEvent& e = raw.event;
  e.recent_window_ns = std::max<uint64_t>(e.time_ns / 10, 1);
  std::map<std::pair<int, uint32_t>, RawSite> sites;
  for (const auto& r : snap.resources) {
    if (r.torn_down() || r.device != e.device || !kind_holds_memory(r.kind)) continue;
    e.tracked_bytes += r.bytes;
    e.tracked_by_kind[r.kind] += r.bytes;
    (r.time_ns + e.recent_window_ns >= e.time_ns ? e.recent_bytes : e.old_bytes) += r.bytes;
    RawSite& s =
        sites.try_emplace({int(r.kind), r.stack_id}, RawSite{r.kind, r.stack_id, snap.hook_of(r)}).first->second;
    s.bytes += r.bytes;
    ++s.count;
    s.first_ns = std::min(s.first_ns, r.time_ns);
    s.last_ns = std::max(s.last_ns, r.time_ns);
  }
  for (auto& [key, site] : sites) raw.sites.push_back(site);
  std::sort(raw.sites.begin(), raw.sites.end(), [](const RawSite& a, const RawSite& b) { return a.bytes > b.bytes; });
  if (raw.sites.size() > kTopSites) raw.sites.resize(kTopSites);
}

// The caching allocator whose code made the failed call at `stack_id`; empty
// when none is known. Symbolizes the stack: out-of-memory is rare, and its
// report symbolizes anyway.
std::string caching_allocator_at(uint32_t stack_id) {
  // The process's symbolizer is used under the report lock, as reports use it.
  std::lock_guard lock(runtime().reports.mutex);
  std::unique_ptr<report::FrameResolver> resolver = make_frame_resolver();
  return report::caching_allocator_of_call(tracker::stack(stack_id), resolver.get());
}

// A framework's failure is when its observer or exception hook ran (its
// CLOCK_MONOTONIC reading), not when its view (seconds of snapshot reading
// later) arrived; now when no reading came with it.
uint64_t failure_time(uint64_t observed_monotonic_ns) {
  return observed_monotonic_ns ? std::min(tracker::elapsed_ns_at(observed_monotonic_ns), tracker::elapsed_ns())
                               : tracker::elapsed_ns();
}

constexpr size_t kMaxAttempts = 16;  // the latest kept per failure
constexpr size_t kMaxRecovered = 8;  // recovered calls kept; older ones dropped

}  // namespace

void Monitor::stack_ids(std::vector<uint32_t>& out) {
  std::lock_guard lock(mutex_);
  for (const RawEvent& r : events_) {
    out.push_back(r.stack_id);
    for (const RawSite& site : r.sites) out.push_back(site.stack_id);
    for (const RawAttempt& a : r.attempts) out.push_back(a.stack_id);
    for (const report::RawReservation& v : r.reservations) out.push_back(v.stack_id);
  }
  out.insert(out.end(), reported_sites_.begin(), reported_sites_.end());
}

bool Monitor::measure_and_keep(RawEvent raw) {
  report::OomEvent& e = raw.event;
  // Its stack is in no holder until the event is kept, after symbolizing
  // (caching_allocator_at): no stack is forgotten meanwhile.
  tracker::StacksHeld stacks_held;
  raw.stack_id = tracker::capture_here();
  report::RawSnapshot snap = tracker::snapshot();
  measure_device(e);
  measure_pools(e, snap);
  measure_others(e);
  measure_process(raw, snap);
  uint64_t others = 0;
  for (const auto& o : e.other_processes) others += o.bytes;
  // Memory the context reserves for the limits the program set is accounted
  // for: not untracked.
  uint64_t reserved = 0;
  for (const report::RawReservation& v : snap.reservations)
    if (v.device == e.device) {
      raw.reservations.push_back(v);
      reserved += v.bytes;
    }
  uint64_t used = e.device_info ? e.total_bytes - e.free_bytes : 0;
  uint64_t accounted = e.tracked_bytes + others + reserved;
  e.untracked_bytes = used > accounted ? used - accounted : 0;
  if (e.has_pytorch) {
    raw.owned = report::tensor_blocks_by_owner(e.pytorch, snap, e.device);
  } else if (!e.has_jax) {
    // Held: a call a caching allocator made, which it retries after freeing
    // its cache (PyTorch's under its observer, CuPy's, XLA's). Without
    // symbols no allocator is known: under PyTorch's observer every failed
    // call is then taken for its allocator's.
    raw.cache = caching_allocator_at(raw.stack_id);
    // Under JAX every failed call is taken for XLA's: its platform
    // allocator's stack names no caching allocator, and XLA raises its own
    // failure after it (one story, the call an attempt of it).
    raw.held = !raw.cache.empty() || (pytorch_observer_attached() && !options().symbolize) || jax_attached();
    raw.thread = tracker::calling_thread();
  }

  std::lock_guard lock(mutex_);
  // The held failed calls this failure ends leave the list: its attempts,
  // oldest first, the latest kMaxAttempts.
  for (auto it = events_.begin(); it != events_.end();) {
    if (!it->held || !report::ends_held_call(*it, raw)) {
      ++it;
      continue;
    }
    for (RawAttempt& a : it->attempts) raw.attempts.push_back(std::move(a));
    raw.attempts.push_back(RawAttempt{it->event, it->stack_id});
    stop_awaiting(*it);
    it = events_.erase(it);
  }
  std::stable_sort(raw.attempts.begin(), raw.attempts.end(),
                   [](const RawAttempt& a, const RawAttempt& b) { return a.event.time_ns < b.event.time_ns; });
  if (raw.attempts.size() > kMaxAttempts) raw.attempts.erase(raw.attempts.begin(), raw.attempts.end() - kMaxAttempts);
  if (events_.size() >= kMaxEvents) drop_oldest_recovered();
  // A failure the program saw (PyTorch's, XLA's) is never lost to the held
  // calls of an allocator that kept failing (XLA's BFC allocator makes a
  // hundred while it waits): the oldest of them makes room.
  if (events_.size() >= kMaxEvents && !raw.held) drop_oldest_held();
  if (events_.size() >= kMaxEvents) return false;
  const bool held = raw.held;
  raw.awaiting_retry = held;
  if (held) g_oom_retries_pending.fetch_add(1, std::memory_order_relaxed);
  events_.push_back(std::move(raw));
  uint32_t site = events_.back().stack_id;
  if (held || reports_ >= kMaxReports || reported_sites_.count(site) ||
      (reports_ > 0 && events_.back().event.time_ns < last_report_ns_ + kReportIntervalNs))
    return false;
  reported_sites_.insert(site);
  ++reports_;
  last_report_ns_ = events_.back().event.time_ns;
  events_.back().event.printed = true;  // the OOM report prints it
  return true;
}

void Monitor::record(HookId api, uint64_t bytes, tracker::Placement where, uint64_t stream) {
  bool write = false;
  try {
    RawEvent raw;
    report::OomEvent& e = raw.event;
    e.time_ns = tracker::elapsed_ns();
    e.api = hook_name(api);
    e.request_bytes = bytes;
    e.device = where.device;
    e.stream = stream;
    // A caching allocator frees its cache and retries after a failed call;
    // under PyTorch, only if that fails too does it raise, and then
    // record_pytorch() tells the story with PyTorch's view. Until then this
    // event is held: kept, not printed.
    write = measure_and_keep(std::move(raw));
  } catch (...) {
    internal_failure("recording an out-of-memory event");
    return;
  }
  if (write) write_report(Reason::Oom);
}

void Monitor::record_pytorch(const report::AllocatorDevice& view, uint64_t request, uint64_t observed_monotonic_ns) {
  bool write = false;
  try {
    RawEvent raw;
    report::OomEvent& e = raw.event;
    e.time_ns = failure_time(observed_monotonic_ns);
    e.api = report::kPyTorchApi;
    e.request_bytes = request;
    e.device = view.device;
    e.has_pytorch = true;
    e.pytorch = view;
    write = measure_and_keep(std::move(raw));
  } catch (...) {
    internal_failure("recording PyTorch's out-of-memory");
    return;
  }
  if (write) write_report(Reason::Oom);
}

void Monitor::record_jax(const report::JaxOom& oom, uint64_t request, uint64_t observed_monotonic_ns,
                         const std::vector<report::Frame>& stack) {
  bool write = false;
  try {
    RawEvent raw;
    report::OomEvent& e = raw.event;
    e.time_ns = failure_time(observed_monotonic_ns);
    e.api = report::kJaxApi;
    e.request_bytes = request;
    e.device = oom.device.device;
    e.has_jax = true;
    e.jax = oom;
    raw.python_stack = stack;
    write = measure_and_keep(std::move(raw));
  } catch (...) {
    internal_failure("recording XLA's out-of-memory");
    return;
  }
  if (write) write_report(Reason::Oom);
}

void Monitor::repeat_jax(int device, uint64_t observed_monotonic_ns, const report::JaxOom& again) {
  try {
    const uint64_t now = observed_monotonic_ns ? tracker::elapsed_ns_at(observed_monotonic_ns) : tracker::elapsed_ns();
    std::lock_guard lock(mutex_);
    for (auto it = events_.rbegin(); it != events_.rend(); ++it) {
      report::OomEvent& e = it->event;
      if (!e.has_jax || e.device != device) continue;
      ++e.jax.raised;
      if (!e.jax.compiled.total_bytes && again.compiled.total_bytes) {
        e.jax.compiled = again.compiled;
        e.jax.message = again.message;
      }
      if (it->attempts.size() < kMaxAttempts) {
        report::OomEvent again;
        again.time_ns = now;
        again.api = report::kJaxApi;
        again.request_bytes = e.request_bytes;
        it->attempts.push_back(RawAttempt{again, it->stack_id});
      }
      return;
    }
  } catch (...) {
    internal_failure("counting XLA's out-of-memory again");
  }
}

std::vector<report::OomEvent> Monitor::events(report::FrameResolver* resolver) {
  std::vector<RawEvent> raw;
  {
    std::lock_guard lock(mutex_);
    raw = events_;
  }
  std::vector<report::OomEvent> out;
  for (RawEvent& r : raw) {
    r.event.recovered = r.recovered;  // a copy: its causes are decided knowing it
    out.push_back(report::told_event(r, tracker::stack, resolver));
  }
  return out;
}

void Monitor::recovered(uint64_t bytes, tracker::Placement where) {
  try {
    const uint32_t thread = tracker::calling_thread();
    const uint64_t now = tracker::elapsed_ns();
    std::lock_guard lock(mutex_);
    for (RawEvent& r : events_)
      if (now > r.event.time_ns + report::kRetryWindowNs) stop_awaiting(r);  // no retry came in time
    for (RawEvent& r : events_) {
      if (!r.awaiting_retry || r.thread != thread || r.event.device != where.device || r.event.request_bytes != bytes)
        continue;
      // The allocator's retry in the same thread, of the same size, succeeded:
      // no failure reached the program.
      stop_awaiting(r);
      r.held = false;
      r.recovered = true;
      size_t kept = 0;
      for (const RawEvent& x : events_) kept += x.recovered;
      if (kept > kMaxRecovered) drop_oldest_recovered();
      return;
    }
  } catch (...) {
    internal_failure("noting an allocator's recovery");
  }
}

void Monitor::drop_oldest_recovered() {
  auto oldest = std::find_if(events_.begin(), events_.end(), [](const RawEvent& r) { return r.recovered; });
  if (oldest != events_.end()) events_.erase(oldest);
}

void Monitor::drop_oldest_held() {
  auto oldest = std::find_if(events_.begin(), events_.end(), [](const RawEvent& r) { return r.held; });
  if (oldest == events_.end()) return;
  stop_awaiting(*oldest);
  events_.erase(oldest);
}

void Monitor::stop_awaiting(RawEvent& r) {
  if (!r.awaiting_retry) return;
  r.awaiting_retry = false;
  g_oom_retries_pending.fetch_sub(1, std::memory_order_relaxed);
}

void Monitor::reset_in_child() {
  std::lock_guard lock(mutex_);
  for (RawEvent& r : events_) stop_awaiting(r);
  events_.clear();
  reported_sites_.clear();
  reports_ = 0;
}

}  // namespace cudaleak::oom

namespace cudaleak {
std::atomic<int> g_oom_retries_pending{0};

void out_of_memory(HookId api, uint64_t bytes, tracker::Placement where, uint64_t stream) {
  runtime().oom.record(api, bytes, where, stream);
}

void out_of_memory_recovered(uint64_t bytes, tracker::Placement where) { runtime().oom.recovered(bytes, where); }
}  // namespace cudaleak
