#include "interpose/track/registry.h"
#include "interpose/base/hot_path.h"

namespace cudaleak {

CUDALEAK_HOT_PATH bool Registry::insert(const Record& record, Record* replaced) {
  Shard& s = shard(record.space, record.handle);
  std::lock_guard lock(s.mutex);
  // A handle the driver hands out again was released behind our back (e.g. by
  // an untracked path); the new resource replaces it.
  return s.records.insert(record, replaced);
}

CUDALEAK_HOT_PATH bool Registry::erase(Space space, uint64_t handle, Record* removed) {
  Shard& s = shard(space, handle);
  std::lock_guard lock(s.mutex);
  return s.records.erase(handle, space, removed);
}

bool Registry::retain(Space space, uint64_t handle) {
  Shard& s = shard(space, handle);
  std::lock_guard lock(s.mutex);
  Record* r = s.records.find(handle, space);
  if (!r) return false;
  ++r->refcount;
  return true;
}

bool Registry::release_reference(Space space, uint64_t handle, Record* removed, bool* erased) {
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

std::vector<Record> Registry::take_if(const std::function<bool(const Record&)>& pred) {
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

std::vector<Record> Registry::snapshot() const {
  std::vector<Record> all;
  all.reserve(size());
  for (const Shard& s : shards_) {
    std::lock_guard lock(s.mutex);
    s.records.for_each([&](const Record& r) { all.push_back(r); });
  }
  return all;
}

void Registry::clear() {
  for (Shard& s : shards_) {
    std::lock_guard lock(s.mutex);
    s.records.clear();
  }
}

size_t Registry::size() const {
  size_t n = 0;
  for (const Shard& s : shards_) {
    std::lock_guard lock(s.mutex);
    n += s.records.size();
  }
  return n;
}

void Registry::lock_all() {
  for (Shard& s : shards_) s.mutex.lock();
}
void Registry::unlock_all() {
  for (Shard& s : shards_) s.mutex.unlock();
}

}  // namespace cudaleak
