// The one start-up of the preload library (lifecycle.h), as every entry
// reaches it: hooks, and the functions a program calls (include/cudaleak.h).
// Apart from lifecycle.h, which starts and ends everything, so that the parts
// it starts can be entered without including it; lifecycle.cpp defines
// initialize_once.
#pragma once
#include <atomic>

#include "interpose/base/state.h"

namespace cudaleak {

void initialize_once();
// Inline: every hook call starts here, and once started it is one load.
inline void ensure_initialized() {
  if (lifecycle_state().load(std::memory_order_acquire) == LifecycleState::Uninitialized) [[unlikely]]
    initialize_once();
}

}  // namespace cudaleak
