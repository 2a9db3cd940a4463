// Whether this thread is inside one of cudaleak's hooks, where it may hold a
// lock of the registry, the stack depot or a view that a report needs. A
// termination signal that lands there must not make the thread wait for that
// report in its handler (the report would wait for the lock the thread
// holds): the handler returns, and the thread waits at the outermost hook's
// way out instead (signals.h), a few microseconds later.
#pragma once
#include <atomic>

namespace cudaleak {

namespace detail {
// Depth of driver hook calls on this thread: a driver hook reached from inside
// another (a driver that calls its own public entry points, the tracker's own
// lookups) passes through untracked.
inline __attribute__((tls_model("initial-exec"))) thread_local int t_hook_depth = 0;
// Library hooks entered and not yet left (driver hooks inside them stay tracked).
inline __attribute__((tls_model("initial-exec"))) thread_local int t_library_hooks = 0;
// Set by a termination handler that interrupted a hook.
inline constinit std::atomic<bool> g_wait_at_hook_exit{false};
void wait_at_hook_exit();  // runtime/signals.cpp
}  // namespace detail

inline bool inside_hook() { return detail::t_hook_depth > 0 || detail::t_library_hooks > 0; }

// Called as the outermost hook of a thread returns.
inline void leaving_hook() {
  if (detail::g_wait_at_hook_exit.load(std::memory_order_relaxed)) [[unlikely]]
    if (!inside_hook()) detail::wait_at_hook_exit();
}

}  // namespace cudaleak
