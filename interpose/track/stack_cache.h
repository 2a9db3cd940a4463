// A per-thread cache of captured stacks that is checked, never trusted.
//
// On x86-64 every return address sits at its frame's CFA - 8, and the
// caller's stack pointer is that CFA. So for a stack captured at a given
// stack pointer, the stack slots that held each return address are known
// (from one full libunwind walk), and a later capture that starts at the same
// stack pointer and finds the same values in those slots has the same call
// path: unwinding is a function of the return addresses and the frame sizes
// they imply. The check reads one word per frame instead of unwinding.
//
// A stack is learned the second time it is seen (a path seen once is not
// worth a full walk), only when every slot holds what the walk says it does,
// no frame is a signal frame, and the slots lie on the thread's own stack.
// Elsewhere (other architectures, alternate stacks, depth over
// kMaxCachedDepth) capture unwinds as before.
#pragma once
#include <cstddef>
#include <cstdint>

namespace cudaleak {

inline constexpr int kMaxCachedDepth = 64;

// An entry's interned id, valid only while the stack depot's epoch is the
// one stored with it (stack_depot.h: the depot may forget a stack at a later
// collection). epoch 0: nothing stored.
struct StackMemo {
  uint32_t id = 0;
  uint32_t epoch = 0;
};
// A memo_epoch no memo has (epochs count collections from 1, each after
// thousands of new stacks): the caller needs the frames.
inline constexpr uint32_t kMemoUnwanted = UINT32_MAX;

// Fills `ips` from the cache when the stack captured at `anchor` (a frame
// address inside the capturing function) is one learned; returns the frame
// count, or SIZE_MAX on a miss. On a hit *memo is the entry's place for the
// stack's interned id; with `memo_epoch` (the depot's epoch now, or
// kMemoUnwanted) equal to the memo's, ips is left unfilled and the count is 0.
size_t stack_cache_lookup(uintptr_t anchor, int depth, bool inside_library_call, uint64_t* ips, StackMemo** memo,
                          uint32_t memo_epoch);

// After a miss that unwound `ips` (n frames): remembers the stack, and on its
// second sighting learns its slots with a full walk. Must be called from the
// same function, at the same `anchor`, as the lookup.
__attribute__((noinline)) void stack_cache_learn(uintptr_t anchor, int depth, bool inside_library_call,
                                                 const uint64_t* ips, size_t n);

// The calling thread's counts, for tests and benchmarks.
struct StackCacheStats {
  uint64_t hits = 0, misses = 0, learned = 0, refused = 0;
};
StackCacheStats stack_cache_thread_stats();

}  // namespace cudaleak
