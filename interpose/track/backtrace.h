// Call stack capture: a checked per-thread cache (stack_cache.h) first, else
// libunwind's unw_backtrace (with its own per-thread cache), without the
// preload library's own frames. Runs outside any tracker lock.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cudaleak {

inline constexpr int kMaxStackDepth = 256;

// Fills `ips` (room for kMaxStackDepth) with at most `depth` return addresses,
// innermost first, starting at the first frame outside this library. With
// `inside_library_call`, our frames further out are dropped too: a
// library-handle hook sits between the program and the library's driver calls.
// When the stack came from the cache (stack_cache.h), *memo points to the
// cached stack's place for its interned id; else *memo is null. With
// `memo_epoch` (the stack depot's epoch; kMemoUnwanted: the caller needs the frames) equal
// to the memo's, ips is left unfilled and 0 is returned: the caller needs
// nothing but the id.
struct StackMemo;
size_t capture_stack(uint64_t* ips, int depth, bool inside_library_call, StackMemo** memo, uint32_t memo_epoch);

// Whether a stack has been walked in this process: the unwinder (libunwind,
// or glibc's backtrace, which loads libgcc_s) is loaded by then.
bool stack_walked_once();

}  // namespace cudaleak
