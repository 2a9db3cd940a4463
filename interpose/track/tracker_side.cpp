// The tracker's records beside the create and release path (tracker.cpp):
// graphs that hold memory, contexts torn down and primary contexts counted,
// a kernel's own malloc, managed memory moved, pools, and the limits that
// reserve memory. Rare calls, each behind the same guard.
#include <algorithm>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "common/frame_tags.h"
#include "interpose/track/backtrace.h"
#include "interpose/track/tracker.h"
#include "interpose/track/tracker_lend.h"

namespace cudaleak::tracker {

namespace {

State& state() { return bound_state(); }

void tear_down(uint64_t context, const char* reason, bool green) {
  State& s = state();
  if (!green) {
    // The limits set on it go with the context (a reset primary context starts from the defaults).
    std::lock_guard lock(s.side_mutex);
    std::erase_if(s.reservations, [&](const auto& entry) { return entry.first.first == context; });
  }
  auto owned = s.registry.take_if([&](const Record& r) {
    if (r.context != context) return false;
    return green ? r.kind == Kind::Stream : kind_dies_with_context(r.kind);
  });
  if (owned.empty()) return;
  for (const Record& r : owned) forget_memory(r);  // the driver freed it with the context
  std::lock_guard lock(s.side_mutex);
  for (const Record& r : owned) s.torn_down.emplace_back(r, reason);
}

}  // namespace

void graph_memory_added(uint64_t graph) {
  guarded("recording graph memory", [&] {
    std::lock_guard lock(state().side_mutex);
    state().graphs_with_memory.insert(graph);
  });
}

void graph_instantiated(uint64_t graph) {
  guarded("recording graph memory", [&] {
    std::lock_guard lock(state().side_mutex);
    state().graphs_with_memory.erase(graph);
  });
}

void graph_destroyed(uint64_t graph) {
  guarded("recording graph memory", [&] {
    {
      std::lock_guard lock(state().side_mutex);
      if (!state().graphs_with_memory.erase(graph)) return;
    }
    // Never instantiated: its allocation nodes never allocated anything.
    auto gone = state().registry.take_if(
        [&](const Record& r) { return r.kind == Kind::GraphMemory && r.stream == graph; });
    for (const Record& r : gone) forget_memory(r);
  });
}

void context_destroyed(HookId api, Space space, uint64_t context, CUresult result, const char* reason) {
  if (result != CUDA_SUCCESS) {
    PendingRelease unknown{space, context, false, {}};
    return end_release(api, unknown, result);
  }
  guarded("recording a context teardown", [&] {
    if (!state().registry.erase(space, context)) record_note(report::NoteType::UnknownRelease, api, context, result);
    tear_down(context, reason, space == Space::GreenContext);
  });
}

void primary_retained(int device, uint64_t context) {
  guarded("recording a primary context", [&] {
    creation_seen();
    std::lock_guard lock(state().side_mutex);
    auto& p = state().primary[device];
    p.context = context;
    ++p.retains;
    ++p.outstanding;
  });
}

void primary_released(int device) {
  guarded("recording a primary context", [&] {
    uint64_t dying = 0;
    {
      std::lock_guard lock(state().side_mutex);
      auto& p = state().primary[device];
      ++p.releases;
      if (p.outstanding > 0 && --p.outstanding == 0) dying = p.context;
    }
    if (dying) tear_down(dying, "primary_context_release", false);
  });
}

void primary_reset(int device) {
  guarded("recording a primary context", [&] {
    uint64_t ctx = 0;
    {
      std::lock_guard lock(state().side_mutex);
      auto& p = state().primary[device];
      ++p.resets;
      p.outstanding = 0;
      ctx = p.context;
    }
    if (ctx) tear_down(ctx, "primary_context_reset", false);
  });
}

namespace {
// The kernel's own frame above the stack of the launch that ran it.
uint32_t device_stack(uint32_t launch_stack, uint32_t device_frame) {
  uint64_t ips[kMaxStackDepth];
  std::vector<uint64_t> launch = state().stacks.get(launch_stack);
  size_t n = 0;
  ips[n++] = report::device_frame_ip(device_frame);
  for (uint64_t ip : launch)
    if (n < size_t(kMaxStackDepth)) ips[n++] = ip;
  return state().stacks.intern(ips, n);
}
}  // namespace

void device_allocated(uint32_t launch_stack, uint32_t device_frame, uint64_t address, uint64_t bytes, Placement where) {
  guarded("recording a device-side allocation", [&] {
    Record r;
    r.stack_id = device_stack(launch_stack, device_frame);
    r.handle = address;
    r.bytes = bytes;
    r.sequence = state().sequence.fetch_add(1, std::memory_order_relaxed) + 1;
    r.time_ns = memory_time_ns();
    r.context = where.context;
    r.thread = calling_thread();
    r.device = int8_t(where.device);
    r.kind = Kind::DeviceHeap;
    r.space = Space::DeviceHeap;
    r.api = uint16_t(HookId::Count);  // a kernel's malloc (creator_name)
    Record replaced;
    if (state().registry.insert(r, &replaced)) forget_memory(replaced);
    state().timeline.add(r.device, r.kind, r.stack_id, int64_t(bytes), r.time_ns);
  });
}

void device_freed(uint64_t address) {
  guarded("recording a device-side free", [&] {
    Record removed;
    if (state().registry.erase(Space::DeviceHeap, address, &removed)) forget_memory(removed);
  });
}

void device_malloc_failed(uint32_t launch_stack, uint32_t device_frame, uint64_t count, uint64_t context) {
  guarded("recording a failed device-side malloc", [&] {
    uint32_t stack = device_stack(launch_stack, device_frame);
    State& s = state();
    std::lock_guard lock(s.side_mutex);
    s.notes_total += count;
    auto key = std::make_tuple(report::NoteType::DeviceHeapExhausted, HookId::Count, stack);
    auto it = s.notes.find(key);
    if (it != s.notes.end()) it->second.count += count;
    else if (s.notes.size() < kMaxDistinctNotes)
      s.notes.emplace(key, report::RawNote{report::NoteType::DeviceHeapExhausted, "malloc", context, 0, stack, count});
  });
}

void managed_prefetched(uint64_t dptr, uint64_t count, int device) {
  guarded("recording a prefetch", [&] {
    Record before;
    bool moved = false;
    state().registry.update(Space::DevicePtr, dptr, [&](Record& r) {
      if (r.kind != Kind::Managed || count < r.bytes || r.device == device) return;
      before = r;
      r.device = int8_t(device);
      moved = true;
    });
    if (!moved || !on_timeline(before.kind, before.bytes)) return;
    const uint64_t now = memory_time_ns();
    state().timeline.add(before.device, before.kind, before.stack_id, -int64_t(before.bytes), now);
    state().timeline.add(device, before.kind, before.stack_id, int64_t(before.bytes), now);
  });
}

void device_malloc_module(const std::string& name) {
  guarded("recording a module that calls malloc", [&] {
    State& s = state();
    std::lock_guard lock(s.side_mutex);
    if (s.device_malloc_modules.size() < 16 && std::find(s.device_malloc_modules.begin(), s.device_malloc_modules.end(),
                                                         name) == s.device_malloc_modules.end())
      s.device_malloc_modules.push_back(name);
  });
}

void pool_created(uint64_t pool) {
  guarded("recording a pool", [&] { state().pools.add(pool); });
}
void pool_destroyed(uint64_t pool) {
  guarded("recording a pool", [&] { state().pools.remove(pool); });
}
uint8_t pool_slot(uint64_t pool) { return state().pools.find(pool); }
// Asked by the pool's own allocations only, so that no other create pays for it.
void pool_allocated(uint8_t slot, uint64_t bytes) { state().pools.allocated(slot, bytes); }
// Rare calls: the stack says where the program set it.
void pool_threshold_set(HookId api, uint64_t pool, uint64_t threshold) {
  guarded("recording a pool's release threshold",
          [&] { state().pools.threshold_set(pool, threshold, capture_stack_id(), hook_name(api)); });
}
void pool_trimmed(uint64_t pool, uint64_t keep) {
  guarded("recording a pool trim", [&] { state().pools.trimmed(pool, keep); });
}

void limit_set(HookId api, int limit, uint64_t value, uint64_t bytes, uint64_t threads, Placement where) {
  try {
    State& s = state();
    report::RawReservation v;
    v.limit = limit;
    v.value = value;
    v.bytes = bytes;
    v.threads = threads;
    v.context = where.context;
    v.device = where.device;
    v.time_ns = elapsed_ns();
    v.stack_id = capture_stack_id();
    v.hook = hook_name(api);
    std::lock_guard lock(s.side_mutex);
    s.reservations[{where.context, limit}] = v;  // the latest setting is the one in effect
  } catch (...) {
    // Bookkeeping only: a failure here never reaches the program.
  }
}

}  // namespace cudaleak::tracker
