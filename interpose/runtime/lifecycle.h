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
#include "interpose/runtime/initialize.h"

namespace cudaleak {

// The end of the process, from the library's destructor or the program's
// _exit (process_exit.cpp): the final report and the gate's verdict, once.
// Returns the status the gate decided, or -1.
int finish_process();
// Ends the process now with `status`, as _exit does.
[[noreturn]] void exit_now(int status);
// False in a child made by vfork or clone without the fork handlers, which
// shares this process's memory or state it must not finish.
bool in_own_process();
namespace detail {
inline constinit std::atomic<int> g_process_id{0};  // set at start-up and in a forked child
}

}  // namespace cudaleak
