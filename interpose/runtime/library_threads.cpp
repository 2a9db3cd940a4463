#include "interpose/runtime/library_threads.h"

#include <atomic>

namespace cudaleak {

namespace {
constexpr int kSlots = 64;  // the driver starts a handful per context
std::atomic<uintptr_t> g_started[kSlots];
}  // namespace

bool started_by_cuda_library(uint64_t begin, uint64_t end) {
  for (const auto& slot : g_started) {
    const uintptr_t thread = slot.load(std::memory_order_relaxed);
    if (thread >= begin && thread < end) return true;
  }
  return false;
}

void note_thread_creator(unsigned long thread, bool cuda_library) {
  for (auto& slot : g_started)
    if (slot.load(std::memory_order_relaxed) == thread) slot.store(0, std::memory_order_relaxed);
  if (!cuda_library) return;
  for (auto& slot : g_started) {
    uintptr_t empty = 0;
    if (slot.compare_exchange_strong(empty, thread)) return;
  }
}

}  // namespace cudaleak
