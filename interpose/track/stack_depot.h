// Interned call stacks: each distinct stack is stored once and named by a
// small id (0 = empty). Ids are handed out in increasing order and never
// reused, so an id can never come to name another stack's frames.
//
// Stacks that nothing holds any more are forgotten by a collection (the
// tracker's stack_collection.cpp gathers what holds them), so a long run with
// ever new call paths keeps a bounded depot. The design, in three rules:
//  - Generations. Each collection starts a generation. Every stack remembers
//    `seen`, the generation in which it was last handed out by intern() or
//    found held by a collection. Collection N (the generation it starts)
//    forgets the stacks with seen < N - 1: not held at collection N nor at
//    N - 1, and not handed out since collection N - 1 began.
//  - Caches. Each generation has an epoch, a number unique in the process.
//    The per-thread caches that hand out ids without the depot (t_recent in
//    stack_depot.cpp, the stack cache's memo) store the epoch their entry was
//    made in and are used only while the depot's epoch is still that one:
//    the cost on the hot path is one load and one compare. So every id
//    handed out, by the depot or a cache, was handed out by the depot in the
//    generation current at that moment or in the one it reads as current.
//  - The race (a thread interned or looked up a stack and has not yet stored
//    it where a collection looks: a record not yet inserted, a release whose
//    record waits out the driver's call, a record between two holders) is
//    ruled out by a grace period of one whole collection: the id was handed
//    out, or was held where collection N - 1 looked, in a generation >= N - 1
//    unless the thread has sat in that window since before collection N - 1
//    began, while other threads interned at least the collection floor of new
//    stacks (16,384 by default). Should that still happen the id names no
//    stack any more: that resource's stack reads empty, never another's.
// A report holds the depot (Hold) from its snapshot until its stacks are
// resolved: no collection forgets a stack meanwhile.
#pragma once
#include <atomic>
#include <cstdint>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

namespace cudaleak {

class StackDepot {
 public:
  StackDepot() = default;
  StackDepot(const StackDepot&) = delete;
  StackDepot& operator=(const StackDepot&) = delete;
  ~StackDepot();

  uint32_t intern(const uint64_t* ips, size_t count);
  // A copy of the frames: the stack may be forgotten once the lock is let go.
  // Empty for id 0 and for an id forgotten or never handed out.
  std::vector<uint64_t> get(uint32_t id) const;
  // The frames in place: valid only while a Hold lives.
  std::span<const uint64_t> get_held(uint32_t id) const;
  size_t size() const;  // stacks held now

  // The epoch the caches compare with: a number no other epoch of any depot
  // in the process has (so a cache entry names its depot too), never 0 (an
  // empty memo) nor kMemoUnwanted.
  uint32_t epoch() const { return epoch_.load(std::memory_order_acquire); }

  // The first collection comes once the depot holds `floor` stacks, each
  // next one after max(floor, stacks the previous one found held, ids it
  // gathered / 8) new ones: bounded work per new stack, and at most about
  // 2 x max(floor, held) + held stacks. 0: never (every stack is kept).
  void set_floor(size_t floor);
  // Set by intern() when the depot has grown past the threshold.
  bool collection_due() const { return due_.load(std::memory_order_relaxed); }
  // A collection in two steps around gathering the held ids (done by the
  // caller with no lock of its own held). begin: false when none is due, one
  // is under way or a Hold forbids it; else the epoch moves on.
  bool begin_collection();
  struct Collected {
    size_t kept = 0, forgotten = 0;
  };
  // Marks `held` (ids, duplicates allowed) as seen in this epoch and forgets
  // every stack neither they nor the grace period keep. A Hold taken since
  // begin_collection makes it mark but forget nothing.
  Collected finish_collection(const std::vector<uint32_t>& held);
  // Ends a collection whose gathering failed: nothing is forgotten.
  void abandon_collection();
  uint64_t collections() const;

  // While one lives, no stack is forgotten (a report resolving the stacks of
  // its snapshot).
  void hold();
  void release_hold();
  class Hold {
   public:
    explicit Hold(StackDepot& depot) : depot_(depot) { depot_.hold(); }
    ~Hold() { depot_.release_hold(); }
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;

   private:
    StackDepot& depot_;
  };

  std::mutex& mutex() { return mutex_; }  // for fork: held across fork()
  // The child of a fork: no collection is under way there, nor any hold.
  void reset_in_child();

  // For the crash path: f(id, frames) for every stack; false when the lock
  // was not free.
  template <typename F>
  bool visit_if_free(F&& f, bool (*try_lock)(std::mutex&)) {
    if (!try_lock(mutex_)) return false;
    for (const auto& [id, s] : by_id_) f(id, std::span<const uint64_t>(s->frames, s->count));
    mutex_.unlock();
    return true;
  }

  // One stored stack: its frames follow it in one allocation.
  struct Stack {
    uint64_t hash;
    uint32_t id;
    uint32_t seen;  // the generation it was last handed out or found held in
    uint32_t count;
    uint64_t frames[];
  };

 private:
  static uint64_t hash(const uint64_t* ips, size_t count);
  const Stack* intern_locked(const uint64_t* ips, size_t count, uint64_t hash, uint32_t* epoch);

  mutable std::mutex mutex_;  // guards everything below but the atomics
  std::unordered_map<uint32_t, Stack*> by_id_;
  std::unordered_multimap<uint64_t, Stack*> by_hash_;
  uint32_t next_id_ = 1;
  // Counts this depot's collections (from 1): `seen` is compared with it.
  uint32_t generation_ = 1;
  std::atomic<uint32_t> epoch_{new_epoch()};
  static uint32_t new_epoch();
  std::atomic<bool> due_{false};
  size_t floor_ = 16384;
  size_t next_collection_ = 16384;  // depot size that makes one due
  bool collecting_ = false;         // between begin_collection and finish_collection
  bool held_since_begin_ = false;   // a Hold was taken meanwhile
  int holds_ = 0;
  uint64_t collections_ = 0;
};

}  // namespace cudaleak
