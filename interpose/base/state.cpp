#include "interpose/base/state.h"

#include "interpose/base/log.h"

namespace cudaleak {

namespace {
std::atomic<bool> g_failure_logged{false};
std::atomic<bool> g_cuda_inherited{false};
std::atomic<void (*)()> g_first_use_observer{nullptr};
}  // namespace

bool internal_failure_happened() { return g_failure_logged.load(); }

void internal_failure(const char* what) {
  lifecycle_state().store(LifecycleState::Disabled, std::memory_order_release);
  if (!g_failure_logged.exchange(true))
    log_message("internal error while %s; tracking stopped, CUDA calls pass through untouched", what);
}

void detail::first_cuda_use() {
  if (g_cuda_seen.exchange(true)) return;  // another thread was first
  if (void (*observer)() = g_first_use_observer.load(std::memory_order_acquire)) observer();
}
void set_first_cuda_use_observer(void (*observer)()) {
  g_first_use_observer.store(observer, std::memory_order_release);
}

void forget_cuda_seen() {
  if (detail::g_cuda_seen.exchange(false)) g_cuda_inherited.store(true);
}
bool cuda_inherited() { return g_cuda_inherited.load(); }

}  // namespace cudaleak
