// pthread_create, passed on unchanged, and the class of its caller
// (library_threads.h): a CUDA library's thread or the program's.
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "interpose/base/next_symbol.h"
#include "interpose/base/state.h"
#include "interpose/runtime/library_threads.h"
#include "interpose/runtime/reachability.h"
#include "interpose/track/backtrace.h"
#include "interpose/track/stack_cache.h"

namespace {

using namespace cudaleak;

// What dladdr says of the code before return address `ip`; false when no
// loaded object holds it.
bool describe(uint64_t ip, Dl_info& info) {
  return dladdr(reinterpret_cast<void*>(ip - 1), &info) && info.dli_fname;
}

// Whether the frame only passes the call on: the C and C++ runtimes, a
// sanitizer's interceptor, or another pthread_create (the program's own
// wrapper, a preloaded tool's) that calls the next one through RTLD_NEXT.
// The wrapper is what called us, whoever asked it for the thread.
bool passes_on(const Dl_info& info) {
  return reachability::go_between(info.dli_fname) ||
         (info.dli_sname && std::strcmp(info.dli_sname, "pthread_create") == 0);
}

// Whether the code that asked for a thread is a CUDA library's: the first
// frame outside those that pass the call on (std::thread: libstdc++, then
// its caller; a sanitizer's interceptor or a wrapper adds one). The direct
// caller decides alone unless it only passes on.
bool created_by_cuda_library(uint64_t caller) {
  Dl_info info{};
  if (!describe(caller, info)) return false;
  if (!passes_on(info)) return reachability::cuda_library(info.dli_fname);
  // A CUDA library starts its threads once it is in use: a process that has
  // made no CUDA call pays for no stack walk.
  if (!cuda_seen()) return false;
  uint64_t ips[kMaxStackDepth];
  StackMemo* memo = nullptr;
  const size_t n = capture_stack(ips, 6, false, &memo, kMemoUnwanted);
  for (size_t i = 0; i < n; ++i) {
    if (!describe(ips[i], info)) return false;
    if (passes_on(info)) continue;
    return reachability::cuda_library(info.dli_fname);
  }
  return false;
}

using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
CreateFn next_create() {
  static std::atomic<CreateFn> next{nullptr};
  CreateFn found = next.load(std::memory_order_relaxed);
  if (!found) {
    found = reinterpret_cast<CreateFn>(next_versioned_symbol("pthread_create", "GLIBC_2.34"));
    if (!found) found = reinterpret_cast<CreateFn>(next_versioned_symbol("pthread_create", "GLIBC_2.2.5"));
    next.store(found, std::memory_order_relaxed);
  }
  return found;
}
}  // namespace

extern "C" __attribute__((visibility("default"))) int pthread_create(pthread_t* thread, const pthread_attr_t* attr,
                                                                     void* (*start)(void*), void* arg) {
  using namespace cudaleak;
  CreateFn next = next_create();
  if (!next) return EAGAIN;
  const int status = next(thread, attr, start, arg);
  // Before initialisation (another library's constructor) the stack cannot be
  // taken yet; CUDA's libraries start their threads later.
  if (status == 0 && tracking_enabled())
    note_thread_creator(*thread, created_by_cuda_library(uint64_t(__builtin_return_address(0))));
  return status;
}
