// The threads cudaleak starts (the reporter, the live server, the Python
// view's worker): their stacks hold cudaleak's own data, which the
// reachability scan must not take for the program's references.
#pragma once
#include <cstdint>

namespace cudaleak {

// Called first thing on each thread cudaleak starts.
void note_own_thread();
bool is_own_thread(uint32_t tid);
// An address on each such thread's stack (its mapping is never scanned), 0 for empty slots.
uintptr_t own_thread_stack(int slot);
inline constexpr int kOwnThreadSlots = 16;
// Named by its creator right after pthread_create ("cudaleak-live"), so that
// a thread that has not run yet is known too (/proc/self/task/TID/comm).
void name_own_thread(unsigned long thread, const char* name);
inline constexpr const char* kOwnThreadPrefix = "cudaleak-";
// A forked child has none of its parent's threads.
void forget_own_threads();

}  // namespace cudaleak
