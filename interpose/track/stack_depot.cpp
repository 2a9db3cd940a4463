#include "interpose/track/stack_depot.h"

#include <algorithm>

namespace cudaleak {

uint64_t StackDepot::hash(const uint64_t* ips, size_t count) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ count;
  for (size_t i = 0; i < count; ++i) {
    h ^= ips[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  return h;
}

namespace {
// Per-thread, direct-mapped memory of stacks interned lately: a loop that
// allocates from one place finds its id without taking the depot's lock.
// Entries point into the depot's storage, which never moves or shrinks.
struct RecentStack {
  uint64_t hash = 0;
  const std::vector<uint64_t>* frames = nullptr;
  uint32_t id = 0;
  const StackDepot* depot = nullptr;
};
constexpr size_t kRecent = 64;
__attribute__((tls_model("initial-exec"))) thread_local RecentStack t_recent[kRecent];
}  // namespace

uint32_t StackDepot::intern(const uint64_t* ips, size_t count) {
  if (count == 0) return 0;
  uint64_t h = hash(ips, count);
  RecentStack& recent = t_recent[h % kRecent];
  if (recent.hash == h && recent.depot == this && recent.frames->size() == count &&
      std::equal(recent.frames->begin(), recent.frames->end(), ips))
    return recent.id;
  uint32_t id = intern_locked(ips, count, h);
  recent = RecentStack{h, &stacks_[id - 1], id, this};
  return id;
}

uint32_t StackDepot::intern_locked(const uint64_t* ips, size_t count, uint64_t h) {
  std::lock_guard lock(mutex_);
  auto [first, last] = by_hash_.equal_range(h);
  for (auto it = first; it != last; ++it) {
    const auto& s = stacks_[it->second - 1];
    if (s.size() == count && std::equal(s.begin(), s.end(), ips)) return it->second;
  }
  stacks_.emplace_back(ips, ips + count);
  auto id = static_cast<uint32_t>(stacks_.size());
  by_hash_.emplace(h, id);
  return id;
}

std::span<const uint64_t> StackDepot::get(uint32_t id) const {
  std::lock_guard lock(mutex_);
  if (id == 0 || id > stacks_.size()) return {};
  return stacks_[id - 1];
}

size_t StackDepot::size() const {
  std::lock_guard lock(mutex_);
  return stacks_.size();
}

}  // namespace cudaleak
