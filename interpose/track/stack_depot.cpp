#include "stack_depot.h"

#include <algorithm>

namespace cudaleak {

uint64_t StackDepot::hash(const uint64_t* ips, size_t count) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ count;
  for (size_t i = 0; i < count; ++i) {
    h ^= ips[i] + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  }
  return h;
}

uint32_t StackDepot::intern(const uint64_t* ips, size_t count) {
  if (count == 0) return 0;
  uint64_t h = hash(ips, count);
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
