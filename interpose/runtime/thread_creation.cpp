// pthread_create, passed on unchanged, and the class of its caller
// (library_threads.h): a CUDA library's thread or the program's.
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cerrno>

#include "interpose/base/next_symbol.h"
#include "interpose/base/state.h"
#include "interpose/runtime/library_threads.h"
#include "interpose/runtime/reachability.h"
#include "interpose/track/backtrace.h"
#include "interpose/track/stack_cache.h"

namespace {

using namespace cudaleak;

// The loaded object holding `ip`, or nullptr.
const char* object_of(uint64_t ip) {
  Dl_info info{};
  return dladdr(reinterpret_cast<void*>(ip - 1), &info) && info.dli_fname ? info.dli_fname : nullptr;
}

// Whether the code that asked for a thread is a CUDA library's: the first
// frame outside the C and C++ runtimes and the sanitizers' interceptors
// (std::thread: libstdc++, then its caller; a sanitizer's interceptor adds
// one). The direct caller decides alone unless it is one of those.
bool created_by_cuda_library(uint64_t caller) {
  const char* direct = object_of(caller);
  if (!direct) return false;
  if (!reachability::go_between(direct)) return reachability::cuda_library(direct);
  // A CUDA library starts its threads once it is in use: a process that has
  // made no CUDA call pays for no stack walk.
  if (!cuda_seen()) return false;
  uint64_t ips[kMaxStackDepth];
  StackMemo* memo = nullptr;
  const size_t n = capture_stack(ips, 4, false, &memo, kMemoUnwanted);
  for (size_t i = 0; i < n; ++i) {
    const char* path = object_of(ips[i]);
    if (!path) return false;
    if (reachability::go_between(path)) continue;
    return reachability::cuda_library(path);
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
