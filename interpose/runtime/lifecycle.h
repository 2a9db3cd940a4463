// Lifecycle of the preload library, an explicit state machine:
//   uninitialized -> enabled -> stopping -> disabled
// Initialised by the library constructor, or by the first hook if another
// library's constructor reaches CUDA first. Tracking stops for good when the
// final report starts, and after any internal failure (logged once): from then
// on every hook is a plain pass-through.
#pragma once
#include "options.h"

namespace cudaleak {

void ensure_initialized();
bool tracking_enabled();
const Options& options();

// Any internal error: log once, switch every hook to pass-through.
void internal_failure(const char* what);
bool internal_failure_happened();

// A hook or dlsym substitution ran: this process uses CUDA and gets a report.
void note_cuda_seen();
bool cuda_seen();

// The lifecycle's part of the fork protocol (fork_protocol.h), in the child.
void lifecycle_after_fork_in_child();

}  // namespace cudaleak
