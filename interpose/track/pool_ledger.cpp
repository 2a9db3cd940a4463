#include "interpose/track/pool_ledger.h"

#include <algorithm>

namespace cudaleak::tracker {

uint8_t PoolLedger::add(uint64_t pool) {
  std::lock_guard lock(mutex_);
  const int n = in_use_.load(std::memory_order_relaxed);
  int slot = 0;
  // A slot whose pool was destroyed and whose allocations are all freed is
  // taken again before a fresh one.
  for (int i = 1; i <= n && !slot; ++i)
    if (slots_[i].pool.load(std::memory_order_relaxed) == 0 && slots_[i].used.load(std::memory_order_relaxed) == 0)
      slot = i;
  if (!slot && n < kSlots) slot = n + 1;
  if (!slot) return 0;
  Slot& s = slots_[slot];
  s.used.store(0, std::memory_order_relaxed);
  s.high.store(0, std::memory_order_relaxed);
  s.threshold = 0;
  s.threshold_set = false;
  s.threshold_stack = 0;
  s.threshold_hook = "";
  s.pool.store(pool, std::memory_order_release);
  if (slot > n) in_use_.store(slot, std::memory_order_release);
  return uint8_t(slot);
}

uint8_t PoolLedger::find(uint64_t pool) const {
  if (!pool) return 0;
  const int n = in_use_.load(std::memory_order_acquire);
  for (int i = 1; i <= n; ++i)
    if (slots_[i].pool.load(std::memory_order_acquire) == pool) return uint8_t(i);
  return 0;
}

void PoolLedger::remove(uint64_t pool) {
  std::lock_guard lock(mutex_);
  if (uint8_t slot = find(pool)) slots_[slot].pool.store(0, std::memory_order_release);
}

void PoolLedger::raise_high(Slot& s, uint64_t used) {
  uint64_t high = s.high.load(std::memory_order_relaxed);
  while (used > high && !s.high.compare_exchange_weak(high, used, std::memory_order_relaxed)) {
  }
}

void PoolLedger::allocated(uint8_t slot, uint64_t bytes) {
  Slot& s = slots_[slot];
  raise_high(s, s.used.fetch_add(bytes, std::memory_order_relaxed) + bytes);
}

void PoolLedger::freed(uint8_t slot, uint64_t bytes) {
  Slot& s = slots_[slot];
  uint64_t used = s.used.load(std::memory_order_relaxed);
  while (!s.used.compare_exchange_weak(used, used > bytes ? used - bytes : 0, std::memory_order_relaxed)) {
  }
}

void PoolLedger::trimmed(uint64_t pool, uint64_t keep) {
  std::lock_guard lock(mutex_);
  uint8_t slot = find(pool);
  if (!slot) return;
  Slot& s = slots_[slot];
  const uint64_t used = s.used.load(std::memory_order_relaxed);
  const uint64_t high = s.high.load(std::memory_order_relaxed);
  s.high.store(std::max(used, std::min(high, keep)), std::memory_order_relaxed);
}

void PoolLedger::threshold_set(uint64_t pool, uint64_t threshold, uint32_t stack_id, const char* hook) {
  std::lock_guard lock(mutex_);
  uint8_t slot = find(pool);
  if (!slot) return;
  Slot& s = slots_[slot];
  s.threshold = threshold;
  s.threshold_set = true;
  s.threshold_stack = stack_id;
  s.threshold_hook = hook;
}

std::vector<report::RawPool> PoolLedger::snapshot() const {
  std::lock_guard lock(mutex_);
  std::vector<report::RawPool> out;
  const int n = in_use_.load(std::memory_order_acquire);
  for (int i = 1; i <= n; ++i) {
    const Slot& s = slots_[i];
    uint64_t pool = s.pool.load(std::memory_order_acquire);
    if (!pool) continue;
    out.push_back(report::RawPool{pool, s.used.load(std::memory_order_relaxed), s.high.load(std::memory_order_relaxed),
                                  s.threshold, s.threshold_set, s.threshold_stack, s.threshold_hook});
  }
  return out;
}

void PoolLedger::clear() {
  std::lock_guard lock(mutex_);
  for (Slot& s : slots_) {
    s.pool.store(0, std::memory_order_relaxed);
    s.used.store(0, std::memory_order_relaxed);
  }
  in_use_.store(0, std::memory_order_release);
}

}  // namespace cudaleak::tracker
