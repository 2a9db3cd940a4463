#include "interpose/track/stack_depot.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

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
// Entries point into the depot's storage and are used only while the depot's
// epoch is the one they were made in (stack_depot.h: a stack handed out in
// that epoch outlives the next collection).
struct RecentStack {
  uint64_t hash = 0;
  const StackDepot::Stack* stack = nullptr;
  uint32_t id = 0;
  uint32_t epoch = 0;  // 0: empty; unique to one depot's generation
};
constexpr size_t kRecent = 64;
__attribute__((tls_model("initial-exec"))) thread_local RecentStack t_recent[kRecent];
}  // namespace

StackDepot::~StackDepot() {
  for (auto& [id, s] : by_id_) std::free(s);
}

uint32_t StackDepot::intern(const uint64_t* ips, size_t count) {
  if (count == 0) return 0;
  uint64_t h = hash(ips, count);
  RecentStack& recent = t_recent[h % kRecent];
  if (recent.hash == h && recent.epoch == epoch_.load(std::memory_order_acquire) && recent.stack->count == count &&
      std::equal(ips, ips + count, recent.stack->frames))
    return recent.id;
  uint32_t epoch = 0;
  const Stack* s = intern_locked(ips, count, h, &epoch);
  if (!s) return 0;
  recent = RecentStack{h, s, s->id, epoch};
  return s->id;
}

uint32_t StackDepot::new_epoch() {
  static std::atomic<uint32_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

const StackDepot::Stack* StackDepot::intern_locked(const uint64_t* ips, size_t count, uint64_t h, uint32_t* epoch) {
  std::lock_guard lock(mutex_);
  *epoch = epoch_.load(std::memory_order_relaxed);
  auto [first, last] = by_hash_.equal_range(h);
  for (auto it = first; it != last; ++it) {
    Stack* s = it->second;
    if (s->count == count && std::equal(ips, ips + count, s->frames)) {
      s->seen = generation_;  // handed out again: kept through the next collection
      return s;
    }
  }
  // Ids are never reused; past the last one new stacks read as empty.
  if (next_id_ == UINT32_MAX) return nullptr;
  auto* s = static_cast<Stack*>(std::malloc(sizeof(Stack) + count * sizeof(uint64_t)));
  if (!s) throw std::bad_alloc();
  s->hash = h;
  s->id = next_id_;
  s->seen = generation_;
  s->count = uint32_t(count);
  std::memcpy(s->frames, ips, count * sizeof(uint64_t));
  try {
    by_hash_.emplace(h, s);
    try {
      by_id_.emplace(s->id, s);
    } catch (...) {
      by_hash_.erase(std::find_if(by_hash_.equal_range(h).first, by_hash_.equal_range(h).second,
                                  [s](const auto& e) { return e.second == s; }));
      throw;
    }
  } catch (...) {
    std::free(s);
    throw;
  }
  ++next_id_;
  if (floor_ && by_id_.size() >= next_collection_) due_.store(true, std::memory_order_relaxed);
  return s;
}

std::vector<uint64_t> StackDepot::get(uint32_t id) const {
  std::lock_guard lock(mutex_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return {};
  return std::vector<uint64_t>(it->second->frames, it->second->frames + it->second->count);
}

std::span<const uint64_t> StackDepot::get_held(uint32_t id) const {
  std::lock_guard lock(mutex_);
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return {};
  return {it->second->frames, it->second->count};
}

size_t StackDepot::size() const {
  std::lock_guard lock(mutex_);
  return by_id_.size();
}

uint64_t StackDepot::collections() const {
  std::lock_guard lock(mutex_);
  return collections_;
}

void StackDepot::set_floor(size_t floor) {
  std::lock_guard lock(mutex_);
  floor_ = floor;
  next_collection_ = floor;
  due_.store(floor && by_id_.size() >= floor, std::memory_order_relaxed);
}

bool StackDepot::begin_collection() {
  std::lock_guard lock(mutex_);
  if (!due_.load(std::memory_order_relaxed) || collecting_ || holds_ > 0) return false;
  collecting_ = true;
  held_since_begin_ = false;
  // From here on the caches' entries of the epoch before are not used, and
  // every hand-out is stamped with the new generation.
  ++generation_;
  epoch_.store(new_epoch(), std::memory_order_release);
  return true;
}

StackDepot::Collected StackDepot::finish_collection(const std::vector<uint32_t>& held) {
  std::lock_guard lock(mutex_);
  Collected out;
  collecting_ = false;
  const uint32_t now = generation_;
  size_t marked = 0;
  for (uint32_t id : held) {
    auto it = by_id_.find(id);
    if (it != by_id_.end() && it->second->seen != now) {
      it->second->seen = now;
      ++marked;
    }
  }
  if (held_since_begin_) {  // a report's snapshot may hold ids the gathering missed: forget nothing
    out.kept = by_id_.size();
    return out;
  }
  for (auto it = by_id_.begin(); it != by_id_.end();) {
    Stack* s = it->second;
    if (s->seen + 1 >= now) {
      ++it;
      continue;
    }
    auto [first, last] = by_hash_.equal_range(s->hash);
    for (auto h = first; h != last; ++h)
      if (h->second == s) {
        by_hash_.erase(h);
        break;
      }
    it = by_id_.erase(it);
    std::free(s);
    ++out.forgotten;
  }
  out.kept = by_id_.size();
  ++collections_;
  // The next one comes after max(floor, stacks held, ids gathered / 8) new
  // stacks: bounded work per new stack (a collection reads every holder,
  // every live record among them), and a bounded depot. (After 2x what it
  // kept, the stacks handed out in the epoch just ended, which it keeps,
  // would make every epoch longer than the one before.)
  next_collection_ = out.kept + std::max({floor_, marked, held.size() / 8});
  due_.store(floor_ && by_id_.size() >= next_collection_, std::memory_order_relaxed);
  // The tables' buckets stay at their largest size: give them back when most
  // of what they indexed is gone.
  if (by_id_.bucket_count() > 4 * (by_id_.size() + 1024)) {
    by_id_.rehash(0);
    by_hash_.rehash(0);
  }
  return out;
}

void StackDepot::abandon_collection() {
  std::lock_guard lock(mutex_);
  collecting_ = false;
}

void StackDepot::hold() {
  std::lock_guard lock(mutex_);
  ++holds_;
  if (collecting_) held_since_begin_ = true;
}

void StackDepot::release_hold() {
  std::lock_guard lock(mutex_);
  --holds_;
}

void StackDepot::reset_in_child() {
  collecting_ = false;
  held_since_begin_ = false;
  holds_ = 0;
}

}  // namespace cudaleak
