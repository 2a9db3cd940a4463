// Live resources, sharded by handle so that threads allocating at once rarely
// meet on a lock. Only bookkeeping runs under a shard lock: never a CUDA call,
// never stack capture.
//
// Events, streams and stream-ordered memory are mostly released soon after
// they are made, by the thread that made them. Their newest records wait in a window of the
// creating thread's own (a few records on lines no other thread writes), and
// reach a shard only when the window is full, the thread ends, or anything
// reads or changes the registry as a whole: a create and destroy on one
// thread then touch no shard at all. Every operation stays exact:
//  - a release that is not in the caller's window looks in the shard, then
//    in every other window, then in the shard again (a window that spills a
//    record moves it under its own lock, so one of the looks sees it);
//  - snapshot, size, take_if, clear and the reference operations first move
//    every window's records into the shards;
//  - the crash path visits the windows as it visits the shards;
//  - where one handle has two records (released by a path cudaleak does not
//    see, then handed out again), the newer one (by sequence) wins, wherever
//    each of them waits, and the observer hears of the older one.
// One thing is weaker: a resource released unseen is found out when its
// handle is handed out again, and with windows only where both records meet
// (a spill, a drain, a release that looks beyond its own window). A new
// resource released from its own window, or a release that finds the old
// record in its shard while the new one waits in another thread's window,
// leaves the other record live: a false leak, where with the shards alone
// the new record replaced the old one at once.
#pragma once
#include <sched.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <vector>

#include "common/record/record.h"
#include "interpose/track/record_table.h"
#include "interpose/base/spin_lock.h"

namespace cudaleak {

class Registry {
 public:
  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;
  // The windows go with it: every thread that used it has ended, or is this one.
  ~Registry();

  // Returns true (and the old record) when a record with the same key was replaced.
  bool insert(const Record& record, Record* replaced = nullptr) {
    return waits(record) ? insert_windowed(record, replaced) : insert_into_shard(record, replaced);
  }
  // Removes and returns the record; false when it was never seen.
  bool erase(Space space, uint64_t handle, Record* removed = nullptr) {
    return windowed(space) ? erase_windowed(space, handle, removed) : erase_from_shard(space, handle, removed);
  }
  // Calls f(record) on the live record of this key, under its shard's lock
  // (f does bookkeeping only). False when there is none.
  template <typename F>
  bool update(Space space, uint64_t handle, F&& f) {
    if (windowed(space))
      return update_windowed(
          space, handle, [](void* fn, Record& r) { (*static_cast<std::remove_reference_t<F>*>(fn))(r); }, &f);
    Shard& s = shard(space, handle);
    std::lock_guard lock(s.mutex);
    Record* r = s.records.find(handle, space);
    if (r) f(*r);
    return r != nullptr;
  }
  // Told of a record that lost its handle to a newer one when a window
  // spilled (the older resource was released by a path cudaleak does not
  // see); insert reports that case to its caller when it sees it at once.
  void set_replaced_observer(void (*observer)(const Record& lost)) { replaced_observer_ = observer; }
  // Reference counting for vmm handles. retain: false when unknown.
  bool retain(Space space, uint64_t handle);
  // Drops one reference; erases at zero (then *erased = true, *removed = the
  // record). Returns false when unknown.
  bool release_reference(Space space, uint64_t handle, Record* removed = nullptr, bool* erased = nullptr);
  // Removes every record matching `pred`.
  std::vector<Record> take_if(const std::function<bool(const Record&)>& pred);
  std::vector<Record> snapshot();
  void clear();
  size_t size();

  void lock_all();
  void unlock_all();
  // Records waiting in threads' windows, not yet in a shard (for tests).
  size_t waiting_in_windows();

  // The address of each thread's window (heap blocks of the registry's own,
  // which the reachability scan never follows: they hold handles).
  template <typename F>
  void for_each_window(F&& f) const {
    for (const Window* w = windows_.load(std::memory_order_acquire); w; w = w->next) f(static_cast<const void*>(w));
  }

  // Calls f(record) for every record, the windows drained first, each shard
  // under its lock (f does bookkeeping only).
  template <typename F>
  void for_each(F&& f) {
    drain_windows();
    for (Shard& s : shards_) {
      std::lock_guard lock(s.mutex);
      s.records.for_each(f);
    }
  }

  // For the crash path: calls f(record) for every record of each shard whose
  // lock it gets within a few tries (a crashed thread may hold one forever),
  // and of each thread's window likewise. No allocation. Returns the number
  // of shards and windows skipped.
  template <typename F>
  size_t visit_if_free(F&& f) {
    // The windows it locks stay locked through the shards' pass, so that no
    // owner spills a record between the two passes (seen twice, or never).
    size_t skipped = 0;
    for (Window* w = windows_.load(std::memory_order_acquire); w; w = w->next) {
      w->visiting = try_lock_briefly(w->lock);
      if (!w->visiting) {
        ++skipped;
        continue;
      }
      for (int i = 0; i < w->count; ++i) f(static_cast<const Record&>(w->records[i]));
    }
    for (Shard& s : shards_) {
      if (!try_lock_briefly(s.mutex)) {
        ++skipped;
        continue;
      }
      s.records.for_each(f);
      s.mutex.unlock();
    }
    for (Window* w = windows_.load(std::memory_order_acquire); w; w = w->next)
      if (w->visiting) w->visiting = false, w->lock.unlock();
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
  // Records that wait in windows: of kinds made and destroyed often, by one
  // thread (stream-ordered memory, not cudaMalloc's, which programs keep).
  static bool waits(const Record& r) {
    return r.kind == Kind::Event || r.kind == Kind::Stream || r.kind == Kind::Async;
  }
  // Spaces where such records may wait: a release looks in its window first.
  static bool windowed(Space space) {
    return space == Space::Event || space == Space::Stream || space == Space::DevicePtr;
  }

  static constexpr int kWindow = 8;
  // One thread's newest records of windowed kinds. Its owner takes its lock
  // for each change; others only to drain or search it. Windows are never
  // freed while the registry lives (the crash path walks the list without a
  // lock); a thread that ends leaves its window empty for the next one.
  struct alignas(64) Window {
    SpinLock lock;
    uint8_t count = 0;
    bool owned = false;     // a live thread uses it (changed under windows_mutex_)
    bool visiting = false;  // locked by the crash path for its whole visit
    Space space[kWindow] = {};
    Registry* registry = nullptr;
    Window* next = nullptr;  // the registry's list, only ever prepended to
    alignas(64) uint64_t handle[kWindow] = {};
    Record records[kWindow];  // the oldest (by sequence) spills first when the window is full
  };
  Window* window_if_any() const;  // the calling thread's window of this registry, or null
  Window* own_window();           // the same, made on first use
  Window* acquire_window();
  static void thread_ended(void* window);
  static int find_slot(const Window& w, Space space, uint64_t handle);  // -1: not there
  // Removes a slot, filling it with the last one. The window's lock held, as below.
  static void take_slot_locked(Window& w, int slot, Record* removed);
  // Moves one window's records (or one slot's) into the shards.
  void spill_locked(Window& w);
  void spill_slot_locked(Window& w, int slot);
  // Every window's records into the shards.
  void drain_windows();
  // A release not in the caller's window: the newest record of the key in the
  // shard and every other window is the one released; older ones were
  // released unseen and go to the observer.
  bool erase_elsewhere(const Window* own, Space space, uint64_t handle, Record* removed);
  // Into its shard, unless a newer record of the same key is there.
  void insert_newest(const Record& record);
  bool insert_into_shard(const Record& record, Record* replaced);
  bool insert_windowed(const Record& record, Record* replaced);
  bool erase_windowed(Space space, uint64_t handle, Record* removed);
  // update for windowed spaces: apply(fn, record) under the lock of wherever it waits.
  bool update_windowed(Space space, uint64_t handle, void (*apply)(void*, Record&), void* fn);
  bool erase_from_shard(Space space, uint64_t handle, Record* removed);

  static constexpr size_t kShards = 64;
  struct alignas(64) Shard {
    mutable SpinLock mutex;
    RecordTable records;
  };
  // The mixed key's top bits pick the shard; the table inside uses its low
  // bits, so the two choices stay independent.
  Shard& shard(Space space, uint64_t handle) { return shards_[(mix_key(handle, space) >> 58) % kShards]; }

  Shard shards_[kShards];
  std::atomic<Window*> windows_{nullptr};
  void (*replaced_observer_)(const Record&) = nullptr;
  mutable std::mutex windows_mutex_;  // the list's owners, searches across windows, drains
};

}  // namespace cudaleak
