// pthread_create, passed on unchanged, and the class of its caller
// (library_threads.h): a CUDA library's thread or the program's.
#include <link.h>
#include <pthread.h>

#include <atomic>
#include <cerrno>
#include <iterator>

#include "interpose/base/next_symbol.h"
#include "interpose/base/state.h"
#include "interpose/runtime/library_threads.h"
#include "interpose/runtime/reachability.h"
#include "interpose/track/backtrace.h"
#include "interpose/track/stack_cache.h"

namespace {

using namespace cudaleak;

// The path of the loaded object holding the code before return address
// `ip` ("" for the program), or nullptr. Not dladdr: it takes the loader's
// lock, which a thread in dlopen holds while a constructor runs, and a
// constructor may wait for a thread that is starting another one.
// dl_iterate_phdr's lock is held only while the loader edits its list.
const char* object_of(uint64_t ip) {
  struct Search {
    uintptr_t ip;
    const char* path;
  } search{uintptr_t(ip - 1), nullptr};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& p = info->dlpi_phdr[i];
          const uintptr_t begin = info->dlpi_addr + p.p_vaddr;
          if (p.p_type == PT_LOAD && s->ip >= begin && s->ip < begin + p.p_memsz) {
            s->path = info->dlpi_name ? info->dlpi_name : "";
            return 1;
          }
        }
        return 0;
      },
      &search);
  return search.path;
}

// Whether `ip` is in a pthread_create that comes before this library's: the
// program's own wrapper or a preloaded tool's, which passes each call on
// through RTLD_NEXT. Those objects were loaded first and stay.
bool in_earlier_pthread_create(uint64_t ip) {
  // pthread_create itself, and the interceptor bodies of LLVM's sanitizer
  // runtimes (since LLVM 17 their pthread_create is a trampoline to these).
  static const char* const kNames[] = {"pthread_create", "__interceptor_pthread_create",
                                       "___interceptor_pthread_create"};
  static CodeRange ranges[8];
  static std::atomic<int> count{-1};  // -1: not looked up yet; -2: being looked up
  int n = count.load(std::memory_order_acquire);
  if (n == -1) {
    int unknown = -1;
    if (count.compare_exchange_strong(unknown, -2)) {  // one thread fills `ranges`, then publishes
      size_t found = 0;
      for (const char* name : kNames) found += definitions_before_self(name, ranges + found, std::size(ranges) - found);
      n = int(found);
      count.store(n, std::memory_order_release);
    }
  }
  for (int i = 0; i < n; ++i)
    if (ip - 1 >= ranges[i].begin && ip - 1 < ranges[i].end) return true;
  return false;
}

// Whether the frame only passes the call on: the C and C++ runtimes, a
// sanitizer's interceptor, or another pthread_create (a wrapper). The
// wrapper is what called us, whoever asked it for the thread.
bool passes_on(uint64_t ip, const char* path) {
  return reachability::go_between(path) || in_earlier_pthread_create(ip);
}

// Whether the code that asked for a thread is a CUDA library's: the first
// frame outside those that pass the call on (std::thread: libstdc++, then
// its caller; a sanitizer's interceptor or a wrapper adds one). The direct
// caller decides alone unless it only passes on.
bool created_by_cuda_library(uint64_t caller) {
  const char* direct = object_of(caller);
  if (!direct) return false;
  if (!passes_on(caller, direct)) return reachability::cuda_library(direct);
  // A CUDA library starts its threads once it is in use: a process that has
  // made no CUDA call pays for no stack walk.
  if (!cuda_seen()) return false;
  // The unwinder loads itself with dlopen at its first walk, and the loader's
  // lock may be held by a thread in dlopen that waits for this one: walk
  // only once a walk has been made (a CUDA call's own stack, as a rule).
  if (!stack_walked_once()) return false;
  uint64_t ips[kMaxStackDepth];
  StackMemo* memo = nullptr;
  // Six frames: std::thread's two (libstdc++, its caller) and room for a
  // sanitizer's interceptor and a wrapper or two in between.
  const size_t n = capture_stack(ips, 6, false, &memo, kMemoUnwanted);
  for (size_t i = 0; i < n; ++i) {
    const char* path = object_of(ips[i]);
    if (!path) return false;
    if (passes_on(ips[i], path)) continue;
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
    // The versions glibc gave it before 2.34 moved it into libc: x86-64's and aarch64's.
    if (!found) found = reinterpret_cast<CreateFn>(next_versioned_symbol("pthread_create", "GLIBC_2.2.5"));
    if (!found) found = reinterpret_cast<CreateFn>(next_versioned_symbol("pthread_create", "GLIBC_2.17"));
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
  // The creator is asked first: after the call the new thread may have run
  // and freed what `thread` points into, which is read only for a CUDA
  // library's own thread. Before initialisation (another library's
  // constructor) the stack cannot be taken yet; CUDA's libraries start their
  // threads later.
  // errno is left as the C library's call leaves it.
  int saved = errno;
  const bool cuda = tracking_enabled() && created_by_cuda_library(uint64_t(__builtin_return_address(0)));
  errno = saved;
  const int status = next(thread, attr, start, arg);
  if (status == 0 && cuda) {
    saved = errno;
    note_cuda_thread(uintptr_t(*thread), reinterpret_cast<uintptr_t>(start), uintptr_t(arg));
    errno = saved;
  }
  return status;
}
