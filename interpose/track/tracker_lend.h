// What tracker.cpp lends to the tracker's other files (tracker_side.cpp):
// the guard every recording runs in, and its state and helpers behind
// calls of their own, so that the create and release paths keep their
// helpers inlined in tracker.cpp. Not for other folders: tracker.h is the
// tracker's face.
#pragma once
#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "common/record/raw.h"
#include "common/record/record.h"
#include "interpose/base/hot_path.h"
#include "interpose/base/state.h"
#include "interpose/driver/cuda_api.h"
#include "interpose/driver/hook_table.h"
#include "interpose/track/tracker_state.h"

namespace cudaleak::tracker {

inline constexpr size_t kMaxDistinctNotes = 256;

class ErrnoKeeper {
 public:
  ErrnoKeeper() : saved_(errno) {}
  ~ErrnoKeeper() { errno = saved_; }

 private:
  int saved_;
};

// Runs bookkeeping; any exception disables tracking instead of reaching the host.
template <typename F>
CUDALEAK_HOT_PATH void guarded(const char* what, F&& body) {
  ErrnoKeeper keep;
  try {
    body();
  } catch (...) {
    internal_failure(what);
  }
}

// Only memory is on the timeline: asked before the clock is read, so that
// releasing a stream or an event reads none.
inline bool on_timeline(Kind kind, uint64_t bytes) { return bytes != 0 && kind_holds_memory(kind); }

State& bound_state();
uint32_t capture_stack_id();  // the calling thread's stack, interned (no lock held)
uint64_t memory_time_ns();    // a memory record's time since the start
void record_note(report::NoteType type, HookId api, uint64_t handle, CUresult result);
void forget_memory(const Record& r);  // memory that went away leaves the timeline and its pool
void creation_seen();                 // the creation observer (live view)

}  // namespace cudaleak::tracker
