// What the tracker keeps: the registry of live resources, the stack depot,
// the timeline, notes, resources torn down with their context, primary
// context counts. Owned by the runtime object (runtime/runtime.h), which
// hands it to the tracker with bind() when it is built, before the lifecycle
// lets any hook record. Never destroyed: hooks run during exit, after static
// destructors.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "interpose/driver/hook_table.h"
#include "common/record/raw.h"
#include "common/record/record.h"
#include "interpose/track/pool_ledger.h"
#include "interpose/track/registry.h"
#include "interpose/track/stack_depot.h"
#include "interpose/track/timeline.h"

namespace cudaleak::tracker {

struct State {
  State();  // the tracker's start: the times every record is measured from

  Registry registry;
  StackDepot stacks;
  Timeline timeline;
  std::atomic<uint64_t> sequence{0};
  uint64_t start_ns = 0;       // CLOCK_MONOTONIC
  uint64_t start_unix_ns = 0;  // the same moment on the wall clock
  // From this time on memory records are stamped with the coarse clock
  // (tracker.cpp, record_time_ns); never where it has no fixed tick.
  uint64_t coarse_after_ns = UINT64_MAX;
  // Set by the first memory record stamped at or after coarse_after_ns: from
  // then on memory reads the coarse clock alone.
  std::atomic<bool> memory_coarse{false};
  // This process's run of cudaleak: pid, start and 64 random bits, so that
  // readers count each process once whatever its reports (report.h's
  // Process::run_id). A forked child makes its own; an exec starts afresh.
  char run_id[48] = {};
  void new_run_id();
  std::atomic<uint32_t> library_scopes{0};
  PoolLedger pools;  // its own lock, taken after side_mutex
  // check_context: creations checked, those that disagreed, those with no
  // learned context.
  std::atomic<uint64_t> placements_checked{0}, placements_wrong{0}, contexts_unseen{0};

  std::mutex side_mutex;  // guards everything below
  std::vector<std::pair<Record, const char*>> torn_down;
  std::map<std::tuple<report::NoteType, HookId, uint32_t>, report::RawNote> notes;
  uint64_t notes_total = 0;
  struct Primary {
    uint64_t context = 0;
    uint64_t retains = 0, releases = 0, resets = 0;
    int64_t outstanding = 0;
  };
  std::map<int, Primary> primary;
  std::unordered_set<uint64_t> graphs_with_memory;  // not instantiated yet
  // Limits the program set (cuCtxSetLimit), by (context, limit): the latest of each.
  std::map<std::pair<uint64_t, int>, report::RawReservation> reservations;
  std::vector<std::string> device_malloc_modules;  // tracker::device_malloc_module

  // Fork protocol: every tracker lock, in a fixed order, held across fork();
  // the child then drops all records it inherited.
  void lock_all();
  void unlock_all();
  void reset_in_child();
};

// The state every tracker function works on from now on.
void bind(State& state);

}  // namespace cudaleak::tracker
