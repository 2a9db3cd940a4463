#include "interpose/track/backtrace.h"

#include <dlfcn.h>
#include <execinfo.h>

#include <algorithm>
#include <atomic>

#include "interpose/track/libunwind_api.h"
#include "interpose/track/stack_cache.h"
#include "common/private_library.h"
#include "interpose/base/real_dlsym.h"
#include "interpose/base/self_module.h"
#include "interpose/base/hot_path.h"

namespace cudaleak {

namespace {

constexpr int kOwnFrameAllowance = 8;  // hook + tracker frames above the caller
std::atomic<bool> g_walked{false};     // stack_walked_once()

// Whether ThreadSanitizer runs in this process. libunwind's unw_backtrace
// keeps a per-thread trace cache whose destructor, run as the thread ends,
// takes a pthread mutex: TSan intercepts that lock after it has already
// retired the thread, and the program dies of SIGSEGV at its first thread
// exit. Under TSan (already a 5-15x slower program) glibc's backtrace, which
// leaves nothing to destroy, takes its place.
bool thread_sanitizer_present() { return real_dlsym() && real_dlsym()(RTLD_DEFAULT, "__tsan_init") != nullptr; }

LibUnwind load_libunwind() {
  LibUnwind api;
  api.backtrace = &::backtrace;  // glibc's: about 10x slower than libunwind's cached one
  void* lib = open_private_library("libunwind.so.8", {"liblzma.so.5"});
  auto sym = [&](const char* name) { return lib && real_dlsym() ? real_dlsym()(lib, name) : nullptr; };
  if (void* f = sym("unw_backtrace"); f && !thread_sanitizer_present())
    api.backtrace = reinterpret_cast<int (*)(void**, int)>(f);
  // The names behind libunwind.h's macros for local unwinding.
  api.getcontext = reinterpret_cast<decltype(api.getcontext)>(sym("_Ux86_64_getcontext"));
  api.init_local = reinterpret_cast<decltype(api.init_local)>(sym("_ULx86_64_init_local"));
  api.step = reinterpret_cast<decltype(api.step)>(sym("_ULx86_64_step"));
  api.get_reg = reinterpret_cast<decltype(api.get_reg)>(sym("_ULx86_64_get_reg"));
  api.is_signal_frame = reinterpret_cast<decltype(api.is_signal_frame)>(sym("_ULx86_64_is_signal_frame"));
  return api;
}

}  // namespace

bool stack_walked_once() { return g_walked.load(std::memory_order_relaxed); }

const LibUnwind& libunwind() {
  static const LibUnwind api = load_libunwind();
  return api;
}

CUDALEAK_HOT_PATH size_t capture_stack(uint64_t* ips, int depth, bool inside_library_call, StackMemo** memo,
                                       uint32_t memo_epoch) {
  // This function's frame address is where the cache's slots are measured
  // from: the same for every capture through the same call path.
  const auto anchor = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  depth = std::min(depth, kMaxStackDepth);
  if (size_t n = stack_cache_lookup(anchor, depth, inside_library_call, ips, memo, memo_epoch); n != SIZE_MAX) return n;
  void* raw[kMaxStackDepth + kOwnFrameAllowance];
  int n = libunwind().backtrace(raw, depth + kOwnFrameAllowance);
  if (!g_walked.load(std::memory_order_relaxed)) [[unlikely]]
    g_walked.store(true, std::memory_order_relaxed);
  int first = 0;
  // The unwinder's own frames may come before ours (a sanitizer's backtrace
  // interceptor wrapping glibc's): dropped with ours.
  for (int i = 0; i < 3 && i < n; ++i)
    if (is_own_code(raw[i])) first = i;
  while (first < n && is_own_code(raw[first])) ++first;
  size_t out = 0;
  for (int i = first; i < n && out < size_t(depth); ++i)
    if (!inside_library_call || !is_own_code(raw[i])) ips[out++] = reinterpret_cast<uint64_t>(raw[i]);
  stack_cache_learn(anchor, depth, inside_library_call, ips, out);
  return out;
}

}  // namespace cudaleak
