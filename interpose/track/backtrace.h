// Call stack capture with libunwind's unw_backtrace (fast path with a
// per-thread cache), without the preload library's own frames. Runs outside
// any tracker lock.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cudaleak {

inline constexpr int kMaxStackDepth = 256;

// Fills `ips` (room for kMaxStackDepth) with at most `depth` return addresses,
// innermost first, starting at the first frame outside this library.
size_t capture_stack(uint64_t* ips, int depth);

}  // namespace cudaleak
