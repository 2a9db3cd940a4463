// What every layer reads: the options and where the library is in its
// lifecycle,
//   uninitialized -> initializing -> enabled -> stopping -> disabled,
// or, in a forked child with trace_children=false, enabled -> untraced (for
// good: no tracking, no report).
// runtime/lifecycle.h moves it along (start-up, the final report); any layer
// may report an internal failure, which switches every hook to pass-through.
#pragma once
#include <atomic>

#include "common/options.h"
#include "interpose/base/options_in_effect.h"  // options(): every layer reads them with the state

namespace cudaleak {

enum class LifecycleState : int { Uninitialized, Initializing, Enabled, Stopping, Disabled, Untraced };
// Inline, as the readers below: every hook call reads them.
inline std::atomic<LifecycleState>& lifecycle_state() {
  static constinit std::atomic<LifecycleState> state{LifecycleState::Uninitialized};
  return state;
}

inline bool tracking_enabled() { return lifecycle_state().load(std::memory_order_acquire) == LifecycleState::Enabled; }

// Any internal error: log once, switch every hook to pass-through.
void internal_failure(const char* what);
bool internal_failure_happened();

// A hook or dlsym substitution ran: this process uses CUDA and gets a report.
namespace detail {
inline constinit std::atomic<bool> g_cuda_seen{false};
void first_cuda_use();  // sets the flag once and tells the observer
}  // namespace detail
// Written once: a store on every call would pull the cache line away from
// every other thread making CUDA calls.
inline void note_cuda_seen() {
  if (!detail::g_cuda_seen.load(std::memory_order_relaxed)) [[unlikely]]
    detail::first_cuda_use();
}
// Called once when the process (or a forked child, after forget_cuda_seen)
// first uses CUDA: the runtime leaves the launcher a mark there, so that a
// process killed before its report is not taken for a clean one.
void set_first_cuda_use_observer(void (*observer)());
inline bool cuda_seen() { return detail::g_cuda_seen.load(std::memory_order_relaxed); }
// A forked child has used CUDA only once it makes a call itself; the driver it
// has loaded is then its parent's (cuda_inherited), no sign of CUDA used
// past cudaleak.
void forget_cuda_seen();
bool cuda_inherited();

}  // namespace cudaleak
