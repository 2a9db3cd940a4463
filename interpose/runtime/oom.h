// Out-of-memory forensics: when a tracked allocation fails with
// out-of-memory, record what held the device at that moment and write a
// report with reason "oom" (once per distinct call site, rate limited).
// Everything is gathered in the failing call's thread, after the real call
// returned: never from the dlsym hook, never at exit.
#pragma once
#include <atomic>

#include "interpose/runtime/oom_monitor.h"

namespace cudaleak {
// Held failed calls not yet ended by a failure or a recovery (hooks/hook.h reads it).
extern std::atomic<int> g_oom_retries_pending;
}  // namespace cudaleak
