#include "interpose/track/registry.h"

#include <pthread.h>

#include <new>

#include "interpose/base/hot_path.h"

namespace cudaleak {

namespace {

// The calling thread's window, and the key that hands it back when the
// thread ends.
__attribute__((tls_model("initial-exec"))) thread_local void* t_window = nullptr;
pthread_key_t g_window_key;

}  // namespace

Registry::~Registry() {
  if (window_if_any()) {
    t_window = nullptr;
    pthread_setspecific(g_window_key, nullptr);
  }
  for (Window* w = windows_.load(std::memory_order_acquire); w;) {
    Window* next = w->next;
    w->~Window();
    ::operator delete(w, std::align_val_t(alignof(Window)));
    w = next;
  }
}

// ---- the calling thread's window -------------------------------------------

CUDALEAK_HOT_PATH Registry::Window* Registry::window_if_any() const {
  auto* w = static_cast<Window*>(t_window);
  return w && w->registry == this ? w : nullptr;
}

CUDALEAK_HOT_PATH Registry::Window* Registry::own_window() {
  if (Window* w = window_if_any()) [[likely]]
    return w;
  return acquire_window();
}

Registry::Window* Registry::acquire_window() {
  static const bool have_key = pthread_key_create(&g_window_key, &Registry::thread_ended) == 0;
  if (!have_key) return nullptr;                                            // no way to hand it back: the shards alone
  if (t_window) static_cast<Window*>(t_window)->registry->drain_windows();  // another registry's (tests)
  Window* w = nullptr;
  {
    std::lock_guard list(windows_mutex_);
    for (Window* free = windows_.load(std::memory_order_relaxed); free && !w; free = free->next)
      if (!free->owned) w = free;
    if (!w) {
      void* memory = ::operator new(sizeof(Window), std::align_val_t(alignof(Window)), std::nothrow);
      if (!memory) return nullptr;
      w = new (memory) Window();
      w->registry = this;
      w->next = windows_.load(std::memory_order_relaxed);
      windows_.store(w, std::memory_order_release);
    }
    w->owned = true;
  }
  t_window = w;
  pthread_setspecific(g_window_key, w);
  return w;
}

// The thread ends: what waits in its window goes to the shards, and the
// window to the next thread.
void Registry::thread_ended(void* window) {
  auto* w = static_cast<Window*>(window);
  Registry& r = *w->registry;
  std::lock_guard list(r.windows_mutex_);
  // A key destructor must not throw (glibc would end the program): what a
  // failed spill leaves stays in the window, where drains still find it.
  try {
    std::lock_guard own(w->lock);
    r.spill_locked(*w);
  } catch (...) {
  }
  w->owned = false;  // the next thread's, with whatever it still holds
  if (t_window == w) t_window = nullptr;
}

// ---- moving records to the shards ------------------------------------------

CUDALEAK_HOT_PATH int Registry::find_slot(const Window& w, Space space, uint64_t handle) {
  for (int i = 0; i < w.count; ++i)
    if (w.handle[i] == handle && w.space[i] == space) return i;
  return -1;
}

CUDALEAK_HOT_PATH void Registry::take_slot_locked(Window& w, int slot, Record* removed) {
  if (removed) *removed = w.records[slot];
  const int last = --w.count;
  if (slot != last) {
    w.records[slot] = w.records[last];
    w.handle[slot] = w.handle[last];
    w.space[slot] = w.space[last];
  }
}

void Registry::spill_slot_locked(Window& w, int slot) {
  insert_newest(w.records[slot]);
  take_slot_locked(w, slot, nullptr);
}

void Registry::spill_locked(Window& w) {
  while (w.count) spill_slot_locked(w, w.count - 1);
}

void Registry::drain_windows() {
  std::lock_guard list(windows_mutex_);
  for (Window* w = windows_.load(std::memory_order_acquire); w; w = w->next) {
    std::lock_guard lock(w->lock);
    spill_locked(*w);
  }
}

void Registry::insert_newest(const Record& record) {
  Shard& s = shard(record.space, record.handle);
  Record lost;
  {
    std::lock_guard lock(s.mutex);
    if (!s.records.insert(record, &lost)) return;
    if (lost.sequence > record.sequence) {  // a newer resource held the handle: this one was released unseen
      s.records.insert(lost);
      lost = record;
    }
  }
  if (replaced_observer_) replaced_observer_(lost);
}

// ---- insert and erase --------------------------------------------------------

CUDALEAK_HOT_PATH bool Registry::insert_into_shard(const Record& record, Record* replaced) {
  Shard& s = shard(record.space, record.handle);
  std::lock_guard lock(s.mutex);
  // A handle the driver hands out again was released behind our back (e.g. by
  // an untracked path); the new resource replaces it.
  return s.records.insert(record, replaced);
}

CUDALEAK_HOT_PATH bool Registry::erase_from_shard(Space space, uint64_t handle, Record* removed) {
  Shard& s = shard(space, handle);
  std::lock_guard lock(s.mutex);
  return s.records.erase(handle, space, removed);
}

CUDALEAK_HOT_PATH bool Registry::insert_windowed(const Record& record, Record* replaced) {
  Window* w = own_window();
  if (!w) [[unlikely]]
    return insert_into_shard(record, replaced);
  std::lock_guard lock(w->lock);
  if (int i = find_slot(*w, record.space, record.handle); i >= 0) {
    if (replaced) *replaced = w->records[i];
    w->records[i] = record;
    return true;
  }
  if (w->count == kWindow) {
    int oldest = 0;
    for (int i = 1; i < kWindow; ++i)
      if (w->records[i].sequence < w->records[oldest].sequence) oldest = i;
    spill_slot_locked(*w, oldest);
  }
  const int slot = w->count++;
  w->handle[slot] = record.handle;
  w->space[slot] = record.space;
  w->records[slot] = record;
  return false;
}

CUDALEAK_HOT_PATH bool Registry::erase_windowed(Space space, uint64_t handle, Record* removed) {
  Window* w = window_if_any();
  if (w) {
    std::lock_guard lock(w->lock);
    if (int i = find_slot(*w, space, handle); i >= 0) {
      take_slot_locked(*w, i, removed);
      return true;
    }
  }
  if (erase_from_shard(space, handle, removed)) return true;
  return erase_elsewhere(w, space, handle, removed);
}

bool Registry::erase_elsewhere(const Window* own, Space space, uint64_t handle, Record* removed) {
  Record newest;
  bool found = false;
  auto consider = [&](const Record& r) {
    if (found && replaced_observer_) replaced_observer_(r.sequence > newest.sequence ? newest : r);
    if (!found || r.sequence > newest.sequence) newest = r;
    found = true;
  };
  std::lock_guard list(windows_mutex_);
  for (Window* w = windows_.load(std::memory_order_acquire); w; w = w->next) {
    if (w == own) continue;
    Record r;
    {
      std::lock_guard lock(w->lock);
      const int i = find_slot(*w, space, handle);
      if (i < 0) continue;
      take_slot_locked(*w, i, &r);
    }
    consider(r);
  }
  // A window that spilled it while we looked moved it under its own lock.
  if (Record r; erase_from_shard(space, handle, &r)) consider(r);
  if (found && removed) *removed = newest;
  return found;
}

bool Registry::update_windowed(Space space, uint64_t handle, void (*apply)(void*, Record&), void* fn) {
  auto f = [&](Record& r) { apply(fn, r); };
  Window* own = window_if_any();
  if (own) {
    std::lock_guard lock(own->lock);
    if (int i = find_slot(*own, space, handle); i >= 0) {
      f(own->records[i]);
      return true;
    }
  }
  auto in_shard = [&] {
    Shard& s = shard(space, handle);
    std::lock_guard lock(s.mutex);
    Record* r = s.records.find(handle, space);
    if (r) f(*r);
    return r != nullptr;
  };
  if (in_shard()) return true;
  std::lock_guard list(windows_mutex_);
  for (Window* w = windows_.load(std::memory_order_acquire); w; w = w->next) {
    if (w == own) continue;
    std::lock_guard lock(w->lock);
    if (int i = find_slot(*w, space, handle); i >= 0) {
      f(w->records[i]);
      return true;
    }
  }
  return in_shard();  // spilled while we looked
}

// ---- reference counts (never windowed kinds, but exact if they were) --------

bool Registry::retain(Space space, uint64_t handle) {
  if (windowed(space)) drain_windows();
  Shard& s = shard(space, handle);
  std::lock_guard lock(s.mutex);
  Record* r = s.records.find(handle, space);
  if (!r) return false;
  ++r->refcount;
  return true;
}

bool Registry::release_reference(Space space, uint64_t handle, Record* removed, bool* erased) {
  if (windowed(space)) drain_windows();
  Shard& s = shard(space, handle);
  std::lock_guard lock(s.mutex);
  Record* r = s.records.find(handle, space);
  if (!r) return false;
  bool last = r->refcount <= 1;
  if (last) s.records.erase(handle, space, removed);
  else --r->refcount;
  if (erased) *erased = last;
  return true;
}

// ---- the registry as a whole --------------------------------------------------

std::vector<Record> Registry::take_if(const std::function<bool(const Record&)>& pred) {
  drain_windows();
  std::vector<Record> taken;
  for (Shard& s : shards_) {
    std::lock_guard lock(s.mutex);
    size_t first = taken.size();
    s.records.for_each([&](const Record& r) {
      if (pred(r)) taken.push_back(r);
    });
    for (size_t i = first; i < taken.size(); ++i) s.records.erase(taken[i].handle, taken[i].space, nullptr);
  }
  return taken;
}

std::vector<Record> Registry::snapshot() {
  std::vector<Record> all;
  all.reserve(size());  // which drains the windows
  for (const Shard& s : shards_) {
    std::lock_guard lock(s.mutex);
    s.records.for_each([&](const Record& r) { all.push_back(r); });
  }
  return all;
}

// In a forked child: the other threads are gone, and so is what their
// windows held for them (the child starts from nothing).
void Registry::clear() {
  {
    std::lock_guard list(windows_mutex_);
    for (Window* w = windows_.load(std::memory_order_acquire); w; w = w->next) {
      std::lock_guard lock(w->lock);
      w->count = 0;
      if (w != t_window) w->owned = false;
    }
  }
  for (Shard& s : shards_) {
    std::lock_guard lock(s.mutex);
    s.records.clear();
  }
}

size_t Registry::size() {
  drain_windows();
  size_t n = 0;
  for (const Shard& s : shards_) {
    std::lock_guard lock(s.mutex);
    n += s.records.size();
  }
  return n;
}

size_t Registry::waiting_in_windows() {
  std::lock_guard list(windows_mutex_);
  size_t n = 0;
  for (Window* w = windows_.load(std::memory_order_acquire); w; w = w->next) {
    std::lock_guard lock(w->lock);
    n += w->count;
  }
  return n;
}

// The fork protocol: nothing may be half-changed when the child is made.
void Registry::lock_all() {
  windows_mutex_.lock();
  for (Window* w = windows_.load(std::memory_order_acquire); w; w = w->next) w->lock.lock();
  for (Shard& s : shards_) s.mutex.lock();
}
void Registry::unlock_all() {
  for (Shard& s : shards_) s.mutex.unlock();
  for (Window* w = windows_.load(std::memory_order_acquire); w; w = w->next) w->lock.unlock();
  windows_mutex_.unlock();
}

}  // namespace cudaleak
