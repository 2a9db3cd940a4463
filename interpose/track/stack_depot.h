// Interned call stacks: each distinct stack is stored once and named by a
// small id (0 = empty). Stacks are never removed, so ids stay valid for the
// life of the process and spans returned by get() never move.
#pragma once
#include <cstdint>
#include <deque>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

namespace cudaleak {

class StackDepot {
 public:
  uint32_t intern(const uint64_t* ips, size_t count);
  std::span<const uint64_t> get(uint32_t id) const;
  size_t size() const;

  std::mutex& mutex() { return mutex_; }  // for fork: held across fork()

 private:
  static uint64_t hash(const uint64_t* ips, size_t count);
  uint32_t intern_locked(const uint64_t* ips, size_t count, uint64_t hash);
  mutable std::mutex mutex_;
  std::deque<std::vector<uint64_t>> stacks_;  // index = id - 1
  std::unordered_multimap<uint64_t, uint32_t> by_hash_;
};

}  // namespace cudaleak
