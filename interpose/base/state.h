// What every layer reads: the options and where the library is in its
// lifecycle,
//   uninitialized -> initializing -> enabled -> stopping -> disabled.
// runtime/lifecycle.h moves it along (start-up, the final report); any layer
// may report an internal failure, which switches every hook to pass-through.
#pragma once
#include <atomic>

#include "options.h"

namespace cudaleak {

enum class LifecycleState : int { Uninitialized, Initializing, Enabled, Stopping, Disabled };
std::atomic<LifecycleState>& lifecycle_state();

// The options in effect: the runtime object's (runtime/runtime.h) once it is
// built, the defaults before.
const Options& options();
void bind_options(const Options& options);
bool tracking_enabled();

// Any internal error: log once, switch every hook to pass-through.
void internal_failure(const char* what);
bool internal_failure_happened();

// A hook or dlsym substitution ran: this process uses CUDA and gets a report.
void note_cuda_seen();
bool cuda_seen();
void forget_cuda_seen();  // a forked child that is not traced

}  // namespace cudaleak
