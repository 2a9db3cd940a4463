#include "state.h"

#include "log.h"

namespace cudaleak {

namespace {
std::atomic<bool> g_cuda_seen{false};
std::atomic<bool> g_failure_logged{false};
constinit std::atomic<const Options*> g_options{nullptr};
}  // namespace

std::atomic<LifecycleState>& lifecycle_state() {
  static std::atomic<LifecycleState> state{LifecycleState::Uninitialized};  // constant-initialised
  return state;
}

const Options& options() {
  if (const Options* bound = g_options.load(std::memory_order_acquire)) [[likely]]
    return *bound;
  // Built on first use, never destroyed: the library constructor can run
  // before this file's static initialisers, and hooks after static destructors.
  static const Options* defaults = new Options();
  return *defaults;
}
void bind_options(const Options& options) { g_options.store(&options, std::memory_order_release); }

bool tracking_enabled() { return lifecycle_state().load(std::memory_order_acquire) == LifecycleState::Enabled; }
bool internal_failure_happened() { return g_failure_logged.load(); }

void internal_failure(const char* what) {
  lifecycle_state().store(LifecycleState::Disabled, std::memory_order_release);
  if (!g_failure_logged.exchange(true))
    log_message("internal error while %s; tracking stopped, CUDA calls pass through untouched", what);
}

void note_cuda_seen() { g_cuda_seen.store(true, std::memory_order_relaxed); }
bool cuda_seen() { return g_cuda_seen.load(std::memory_order_relaxed); }
void forget_cuda_seen() { g_cuda_seen.store(false); }

}  // namespace cudaleak
