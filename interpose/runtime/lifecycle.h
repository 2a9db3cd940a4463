// Lifecycle of the preload library (the state in base/state.h):
//   uninitialized -> initializing -> enabled -> stopping -> disabled
// (a forked child that is not traced: untraced, for good)
// Initialised by the library constructor, or by the first hook if another
// library's constructor reaches CUDA first: options, signal handlers, the fork
// protocol. Tracking stops for good when the final report starts, and after
// any internal failure (logged once): from then on every hook is a plain
// pass-through.
#pragma once
#include "interpose/base/state.h"

namespace cudaleak {

void initialize_once();
// Inline: every hook call starts here, and once started it is one load.
inline void ensure_initialized() {
  if (lifecycle_state().load(std::memory_order_acquire) == LifecycleState::Uninitialized) [[unlikely]]
    initialize_once();
}

// The lifecycle's part of the fork protocol (fork_protocol.h), in the child.
void lifecycle_after_fork_in_child();

}  // namespace cudaleak
