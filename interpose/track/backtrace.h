// Call stack capture with libunwind's unw_backtrace (fast path with a
// per-thread cache), without the preload library's own frames. Runs outside
// any tracker lock.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cudaleak {

inline constexpr int kMaxStackDepth = 256;

// Fills `ips` (room for kMaxStackDepth) with at most `depth` return addresses,
// innermost first, starting at the first frame outside this library. With
// `inside_library_call`, our frames further out are dropped too: a
// library-handle hook sits between the program and the library's driver calls.
size_t capture_stack(uint64_t* ips, int depth, bool inside_library_call);

}  // namespace cudaleak
