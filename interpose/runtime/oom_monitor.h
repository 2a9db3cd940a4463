// The out-of-memory events of this process (oom.h says what is gathered and
// when): what the runtime object holds (runtime.h). Apart from oom.h so that
// runtime.h includes nothing that includes it back; the methods, in oom.cpp,
// write reports through the runtime object.
#pragma once
#include <atomic>
#include <cstdint>
#include <set>
#include <string>
#include <mutex>
#include <vector>

#include "common/record/raw.h"
#include "report/model/report.h"
#include "report/write/oom_in_process.h"
#include "interpose/driver/hook_table.h"
#include "interpose/track/tracker.h"

namespace cudaleak::oom {

// What an event keeps until a report resolves its stacks (RawOom), and
// where the monitor is with it.
using RawSite = report::RawOomSite;
using RawAttempt = report::RawOomAttempt;
struct RawEvent : report::RawOom {
  // Not printed yet: made by a caching allocator, which retries, or under
  // PyTorch, which raises its own out-of-memory if the retry fails too.
  bool held = false;
  bool recovered = false;  // its allocator's retry succeeded (Monitor::recovered)
  // Counted in g_oom_retries_pending: a retry within kRetryWindowNs may still
  // come. Past it the call stays held (a failure the program saw) but no
  // longer costs the allocations that follow a look.
  bool awaiting_retry = false;
  uint32_t thread = 0;  // kernel thread id of the failed call
};

// The events of this process; part of the runtime object (runtime.h).
class Monitor {
 public:
  void record(HookId api, uint64_t bytes, tracker::Placement where, uint64_t stream);
  // PyTorch raised an out-of-memory (its observer ran, in the raising
  // thread, at `observed_monotonic_ns`; 0: now): `view` is its allocator's
  // state on that device.
  void record_pytorch(const report::AllocatorDevice& view, uint64_t request, uint64_t observed_monotonic_ns);
  // XLA raised RESOURCE_EXHAUSTED (cudaleak_jax saw it raised at
  // `observed_monotonic_ns`, in the Python frames `stack`): `oom` is the
  // failure and JAX's view of the device.
  void record_jax(const report::JaxOom& oom, uint64_t request, uint64_t observed_monotonic_ns,
                  const std::vector<report::Frame>& stack);
  // The same failure raised again: one more raise of the latest JAX event on
  // `device`; what `again` says of compiled buffers fills in what the first
  // raise did not say.
  void repeat_jax(int device, uint64_t observed_monotonic_ns, const report::JaxOom& again);
  // JAX is imported: from then on failed calls are held back for XLA's own
  // failure, which ends them (its allocator's calls, whatever the stack says).
  void attach_jax() { jax_.store(true, std::memory_order_relaxed); }
  bool jax_attached() const { return jax_.load(std::memory_order_relaxed); }
  // From then on failed calls are held back for PyTorch's own event.
  void attach_pytorch_observer() { observer_.store(true, std::memory_order_relaxed); }
  bool pytorch_observer_attached() const { return observer_.load(std::memory_order_relaxed); }
  // A tracked allocation of `bytes` succeeded while failed calls were held:
  // the held call of this thread and size, on that device, recovered.
  void recovered(uint64_t bytes, tracker::Placement where);
  // The events so far, stacks resolved, each with its diagnosis.
  std::vector<report::OomEvent> events(report::FrameResolver* resolver);

  // Appends the stack id of every event, attempt, site, reservation and
  // reported site kept (the stack depot's collection keeps them).
  void stack_ids(std::vector<uint32_t>& out);

  std::mutex& mutex() { return mutex_; }  // for the fork protocol
  void reset_in_child();

 private:
  // Measures the device and this process around `raw` (its event's time,
  // device and request set), folds into it the held failed calls it ends,
  // stores it, and says whether it gets its own OOM report now: one per
  // distinct failing call site, at most one a second, none while held.
  bool measure_and_keep(RawEvent raw);

  // Makes room: the oldest event whose allocator recovered goes.
  void drop_oldest_recovered();
  // Makes room for a failure the program saw: the oldest held call goes.
  void drop_oldest_held();
  // `r` no longer waits for its allocator's retry (g_oom_retries_pending).
  void stop_awaiting(RawEvent& r);

  std::atomic<bool> observer_{false};
  std::atomic<bool> jax_{false};
  std::mutex mutex_;  // guards everything below
  std::vector<RawEvent> events_;
  std::set<uint32_t> reported_sites_;
  size_t reports_ = 0;
  uint64_t last_report_ns_ = 0;
};

}  // namespace cudaleak::oom
