#include "interpose/track/stack_collection.h"

#include <atomic>
#include <mutex>

#include "interpose/track/tracker_state.h"

namespace cudaleak::tracker {

namespace {
std::atomic<void (*)(std::vector<uint32_t>&)> g_holders{nullptr};

// Consecutive records often share a stack: one entry for a run of them.
void add(std::vector<uint32_t>& out, uint32_t id) {
  if (id && (out.empty() || out.back() != id)) out.push_back(id);
}
}  // namespace

void set_stack_holders(void (*holders)(std::vector<uint32_t>&)) { g_holders.store(holders, std::memory_order_release); }

void collect_stacks(State& s) {
  if (!s.stacks.begin_collection()) return;
  std::vector<uint32_t> held;
  try {
    // The registry before the side state: records move from the one to the
    // other (a context's teardown), so one that moves meanwhile is seen in
    // the torn-down list unless it is between the two at both looks (the
    // grace period of stack_depot.h covers that).
    s.registry.for_each([&](const Record& r) { add(held, r.stack_id); });
    {
      std::lock_guard lock(s.side_mutex);
      for (const auto& [r, reason] : s.torn_down) add(held, r.stack_id);
      for (const auto& [key, note] : s.notes) {
        add(held, std::get<2>(key));
        add(held, note.stack_id);
      }
      for (const auto& [key, v] : s.reservations) add(held, v.stack_id);
    }
    s.timeline.stack_ids(held);
    for (const report::RawPool& pool : s.pools.snapshot()) add(held, pool.threshold_stack);
    if (auto holders = g_holders.load(std::memory_order_acquire)) holders(held);
  } catch (...) {
    s.stacks.abandon_collection();  // a gathering that failed half way missed holders: forget nothing
    throw;
  }
  s.stacks.finish_collection(held);
}

}  // namespace cudaleak::tracker
