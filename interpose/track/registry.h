// Live resources, sharded by handle so that threads allocating at once rarely
// meet on a lock. Only bookkeeping runs under a shard lock: never a CUDA call,
// never stack capture.
#pragma once
#include <sched.h>

#include <functional>
#include <mutex>
#include <vector>

#include "report/model/record.h"
#include "interpose/track/record_table.h"
#include "interpose/base/spin_lock.h"

namespace cudaleak {

class Registry {
 public:
  // Returns true (and the old record) when a record with the same key was replaced.
  bool insert(const Record& record, Record* replaced = nullptr);
  // Removes and returns the record; false when it was never seen.
  bool erase(Space space, uint64_t handle, Record* removed = nullptr);
  // Calls f(record) on the live record of this key, under its shard's lock
  // (f does bookkeeping only). False when there is none.
  template <typename F>
  bool update(Space space, uint64_t handle, F&& f) {
    Shard& s = shard(space, handle);
    std::lock_guard lock(s.mutex);
    Record* r = s.records.find(handle, space);
    if (r) f(*r);
    return r != nullptr;
  }
  // Reference counting for vmm handles. retain: false when unknown.
  bool retain(Space space, uint64_t handle);
  // Drops one reference; erases at zero (then *erased = true, *removed = the
  // record). Returns false when unknown.
  bool release_reference(Space space, uint64_t handle, Record* removed = nullptr, bool* erased = nullptr);
  // Removes every record matching `pred`.
  std::vector<Record> take_if(const std::function<bool(const Record&)>& pred);
  std::vector<Record> snapshot() const;
  void clear();
  size_t size() const;

  void lock_all();
  void unlock_all();

  // For the crash path: calls f(record) for every record of each shard whose
  // lock it gets within a few tries (a crashed thread may hold one forever).
  // No allocation. Returns the number of shards skipped.
  template <typename F>
  size_t visit_if_free(F&& f) {
    size_t skipped = 0;
    for (Shard& s : shards_) {
      if (!try_lock_briefly(s.mutex)) {
        ++skipped;
        continue;
      }
      s.records.for_each(f);
      s.mutex.unlock();
    }
    return skipped;
  }
  // The lock within a few tries, yielding in between; false when another
  // thread (a crashed one, maybe) keeps it.
  template <typename Lock>
  static bool try_lock_briefly(Lock& m) {
    for (int i = 0; i < 1000; ++i) {
      if (m.try_lock()) return true;
      sched_yield();  // another thread will let go soon; the crashed one never will
    }
    return false;
  }

 private:
  static constexpr size_t kShards = 64;
  struct alignas(64) Shard {
    mutable SpinLock mutex;
    RecordTable records;
  };
  // The mixed key's top bits pick the shard; the table inside uses its low
  // bits, so the two choices stay independent.
  Shard& shard(Space space, uint64_t handle) { return shards_[(mix_key(handle, space) >> 58) % kShards]; }

  Shard shards_[kShards];
};

}  // namespace cudaleak
