#include "registry.h"

#include <sched.h>

namespace cudaleak {

bool Registry::insert(const Record& record, Record* replaced) {
  Key key{record.handle, record.space};
  Shard& s = shard(key);
  std::lock_guard lock(s.mutex);
  // A handle the driver hands out again was released behind our back (e.g. by
  // an untracked path); the new resource replaces it.
  auto [it, fresh] = s.records.try_emplace(key, record);
  if (fresh) return false;
  if (replaced) *replaced = it->second;
  it->second = record;
  return true;
}

bool Registry::erase(Space space, uint64_t handle, Record* removed) {
  Key key{handle, space};
  Shard& s = shard(key);
  std::lock_guard lock(s.mutex);
  auto it = s.records.find(key);
  if (it == s.records.end()) return false;
  if (removed) *removed = it->second;
  s.records.erase(it);
  return true;
}

bool Registry::retain(Space space, uint64_t handle) {
  Key key{handle, space};
  Shard& s = shard(key);
  std::lock_guard lock(s.mutex);
  auto it = s.records.find(key);
  if (it == s.records.end()) return false;
  ++it->second.refcount;
  return true;
}

bool Registry::release_reference(Space space, uint64_t handle, Record* removed, bool* erased) {
  Key key{handle, space};
  Shard& s = shard(key);
  std::lock_guard lock(s.mutex);
  auto it = s.records.find(key);
  if (it == s.records.end()) return false;
  bool last = --it->second.refcount == 0;
  if (last) {
    if (removed) *removed = it->second;
    s.records.erase(it);
  }
  if (erased) *erased = last;
  return true;
}

std::vector<Record> Registry::take_if(const std::function<bool(const Record&)>& pred) {
  std::vector<Record> taken;
  for (Shard& s : shards_) {
    std::lock_guard lock(s.mutex);
    for (auto it = s.records.begin(); it != s.records.end();) {
      if (pred(it->second)) {
        taken.push_back(it->second);
        it = s.records.erase(it);
      } else {
        ++it;
      }
    }
  }
  return taken;
}

std::vector<Record> Registry::snapshot() const {
  std::vector<Record> all;
  for (const Shard& s : shards_) {
    std::lock_guard lock(s.mutex);
    for (const auto& [key, record] : s.records) all.push_back(record);
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

bool Registry::try_lock_briefly(std::mutex& m) {
  for (int i = 0; i < 1000; ++i) {
    if (m.try_lock()) return true;
    sched_yield();  // another thread will let go soon; the crashed one never will
  }
  return false;
}

void Registry::lock_all() {
  for (Shard& s : shards_) s.mutex.lock();
}
void Registry::unlock_all() {
  for (Shard& s : shards_) s.mutex.unlock();
}

}  // namespace cudaleak
