#include "interpose/base/own_threads.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

namespace cudaleak {

namespace {
constexpr int kSlots = 16;  // threads cudaleak starts: a handful per process
std::atomic<uint32_t> g_threads[kSlots];
}  // namespace

void note_own_thread() {
  const auto tid = uint32_t(syscall(SYS_gettid));
  for (auto& slot : g_threads) {
    uint32_t empty = 0;
    if (slot.load(std::memory_order_relaxed) == tid || slot.compare_exchange_strong(empty, tid)) return;
  }
}

bool is_own_thread(uint32_t tid) {
  for (const auto& slot : g_threads)
    if (tid && slot.load(std::memory_order_relaxed) == tid) return true;
  return false;
}

void forget_own_threads() {
  for (auto& slot : g_threads) slot.store(0, std::memory_order_relaxed);
}

}  // namespace cudaleak
