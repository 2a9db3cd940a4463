#include "interpose/base/own_threads.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>

namespace cudaleak {

namespace {
constexpr int kSlots = kOwnThreadSlots;  // threads cudaleak starts: a handful per process
std::atomic<uint32_t> g_threads[kSlots];
std::atomic<uintptr_t> g_stacks[kSlots];
}  // namespace

void note_own_thread() {
  const auto tid = uint32_t(syscall(SYS_gettid));
  for (int i = 0; i < kSlots; ++i) {
    uint32_t empty = 0;
    if (g_threads[i].load(std::memory_order_relaxed) == tid || g_threads[i].compare_exchange_strong(empty, tid)) {
      g_stacks[i].store(uintptr_t(__builtin_frame_address(0)), std::memory_order_relaxed);
      return;
    }
  }
}

uintptr_t own_thread_stack(int slot) {
  return slot >= 0 && slot < kSlots && g_threads[slot].load(std::memory_order_relaxed)
             ? g_stacks[slot].load(std::memory_order_relaxed)
             : 0;
}

bool is_own_thread(uint32_t tid) {
  for (const auto& slot : g_threads)
    if (tid && slot.load(std::memory_order_relaxed) == tid) return true;
  return false;
}

void name_own_thread(unsigned long thread, const char* name) { pthread_setname_np(pthread_t(thread), name); }

void forget_own_threads() {
  for (auto& slot : g_threads) slot.store(0, std::memory_order_relaxed);
  for (auto& slot : g_stacks) slot.store(0, std::memory_order_relaxed);
}

}  // namespace cudaleak
