#include "backtrace.h"

#include <execinfo.h>

#include <algorithm>
#include <atomic>

#include "symbols/bundled_library.h"
#include "../hooks/dlsym_override.h"
#include "../runtime/self_module.h"

namespace cudaleak {

namespace {

constexpr int kOwnFrameAllowance = 8;  // hook + tracker frames above the caller

using UnwBacktrace = int (*)(void**, int);

// libunwind's unw_backtrace (~0.1-0.4 us for 15-65 frames with its cache),
// loaded privately on first use; glibc's backtrace (~10x slower) otherwise.
UnwBacktrace unwinder() {
  static std::atomic<UnwBacktrace> fn{nullptr};
  static std::atomic<bool> tried{false};
  if (UnwBacktrace f = fn.load(std::memory_order_acquire)) return f;
  if (!tried.exchange(true)) {
    void* lib = symbols::open_private_library("libunwind.so.8", {"liblzma.so.5"});
    void* sym = lib && real_dlsym() ? real_dlsym()(lib, "unw_backtrace") : nullptr;
    fn.store(sym ? reinterpret_cast<UnwBacktrace>(sym) : &::backtrace, std::memory_order_release);
  }
  UnwBacktrace f = fn.load(std::memory_order_acquire);
  return f ? f : &::backtrace;
}

}  // namespace

size_t capture_stack(uint64_t* ips, int depth, bool inside_library_call) {
  void* raw[kMaxStackDepth + kOwnFrameAllowance];
  int want = std::min(depth, kMaxStackDepth) + kOwnFrameAllowance;
  int n = unwinder()(raw, want);
  int first = 0;
  while (first < n && is_own_code(raw[first])) ++first;
  size_t out = 0;
  for (int i = first; i < n && out < size_t(depth); ++i)
    if (!inside_library_call || !is_own_code(raw[i])) ips[out++] = reinterpret_cast<uint64_t>(raw[i]);
  return out;
}

}  // namespace cudaleak
