// What each memory pool the program created keeps, counted as it goes: the
// exit path makes no CUDA call, so the pool's own figures
// (CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT) cannot be asked then. A pool's used
// bytes are its live stream-ordered allocations; its high-water mark is the
// most they reached since it was created or last trimmed; the release
// threshold is what the program set. With them a report can say how much a
// pool keeps reserved at most: the driver returns a pool's free memory above
// its release threshold at each synchronization, so it keeps
// max(used, min(high-water, threshold)).
//
// Pools are few, so a fixed table: a pool gets a slot at creation, its
// allocations carry the slot (Record::pool), and allocation and free touch
// only that slot's two atomics. Lookups by handle scan the slots, and only
// cuMemAllocFromPoolAsync, cuMemPoolSetAttribute and cuMemPoolTrimTo make them.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "common/record/raw.h"

namespace cudaleak::tracker {

class PoolLedger {
 public:
  static constexpr int kSlots = 255;  // Record::pool is one byte; 0 is "none"

  // A new pool: its slot, or 0 when every slot holds a live pool.
  uint8_t add(uint64_t pool);
  // The slot of a live pool, or 0.
  uint8_t find(uint64_t pool) const;
  // The pool was destroyed. Its slot is taken again only once its
  // allocations are freed (cuMemPoolDestroy may leave some outstanding).
  void remove(uint64_t pool);

  void allocated(uint8_t slot, uint64_t bytes);
  void freed(uint8_t slot, uint64_t bytes);
  // cuMemPoolTrimTo(pool, keep): the pool returns its free memory down to
  // `keep` bytes; the high-water mark starts again from what is left.
  void trimmed(uint64_t pool, uint64_t keep);
  void threshold_set(uint64_t pool, uint64_t threshold, uint32_t stack_id, const char* hook);

  std::vector<report::RawPool> snapshot() const;
  void clear();
  std::mutex& mutex() { return mutex_; }  // the fork protocol holds it across fork()

 private:
  struct Slot {
    std::atomic<uint64_t> pool{0};  // 0: free, or destroyed
    std::atomic<uint64_t> used{0}, high{0};
    // Written under mutex_, read by snapshots under it.
    uint64_t threshold = 0;
    bool threshold_set = false;
    uint32_t threshold_stack = 0;
    const char* threshold_hook = "";
  };
  void raise_high(Slot& s, uint64_t used);
  Slot slots_[kSlots + 1];      // [0] unused
  std::atomic<int> in_use_{0};  // slots handed out so far: scans stop there
  mutable std::mutex mutex_;    // add, remove, threshold, trim and snapshot
};

}  // namespace cudaleak::tracker
