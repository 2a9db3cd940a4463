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

  // For the crash path: f(id, frames) for every stack; false when the lock
  // was not free.
  template <typename F>
  bool visit_if_free(F&& f, bool (*try_lock)(std::mutex&)) {
    if (!try_lock(mutex_)) return false;
    for (size_t i = 0; i < stacks_.size(); ++i) f(uint32_t(i + 1), std::span<const uint64_t>(stacks_[i]));
    mutex_.unlock();
    return true;
  }

 private:
  static uint64_t hash(const uint64_t* ips, size_t count);
  uint32_t intern_locked(const uint64_t* ips, size_t count, uint64_t hash);
  mutable std::mutex mutex_;
  std::deque<std::vector<uint64_t>> stacks_;  // index = id - 1
  std::unordered_multimap<uint64_t, uint32_t> by_hash_;
};

}  // namespace cudaleak
