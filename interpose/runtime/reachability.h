// Lost or still reachable: at a report, the program's memory that may hold
// its device pointers and handles is searched for each live resource, as
// LeakSanitizer searches for heap blocks (docs/ci.md#lost-or-still-reachable
// says what is scanned and what is not).
//
// Roots: the writable segments of every loaded object but the CUDA and
// NVIDIA libraries, the C and C++ runtimes and the dynamic loader (malloc's
// free lists, their own state) and cudaleak itself (which hold every address
// by design); static cudart's
// globals inside the executable (its local symbols libcudart_static_*); the
// reporting thread's stack above the point where it entered cudaleak
// (base/entry_frame.h), less the C library's and the loader's frames; every
// other thread's stack above its stack pointer (/proc/self/task/TID/syscall),
// but not CUDA's own threads (by name, or started by a CUDA library:
// library_threads.h), or, where a thread is running, every mapping that looks like a stack,
// whole. From there, malloc chunks and other anonymous memory are followed
// (reach_scan.h). Registers are not seen: threads are not stopped.
//
// Never in a signal handler: it reads files and maps memory (the crash
// capture does not scan).
#pragma once
#include <cstdint>

#include "common/record/raw.h"

namespace cudaleak::reachability {

// Fills snapshot.reach (by record) and snapshot.reach_scan. entry_sp: the
// reporting thread's stack pointer where it entered cudaleak (its frames
// below are cudaleak's); byte_limit: the most bytes scanned, then what was
// not found is not determined.
void find_references(report::RawSnapshot& snapshot, uint64_t entry_sp, uint64_t byte_limit);

// How a resource of this kind is searched for: a pointer anywhere into its
// range (memory), its exact value (handles), or not at all.
enum class Search { Range, Exact, NotSearched };
Search search_of(Kind kind);

// Whether the loaded object at `path` is one whose globals hold every
// resource's address by design (CUDA's and NVIDIA's libraries, the C
// library, the dynamic loader).
bool excluded_object(const char* path);
// Whether a thread's name (/proc/self/task/TID/comm) is one the CUDA driver
// ("cuda-EvtHandlr", "cuda00001400006"), NCCL ("NCCL Progress") or cudaleak
// ("cudaleak-live") gives its threads; never a name a program may choose
// for its own, such as "cuda_loader".
bool library_thread_name(const char* name);
// Whether `path` is one of CUDA's or NVIDIA's libraries (libcuda, libcudart,
// libcublas, libnccl, ...).
bool cuda_library(const char* path);
// Whether code at `path` only passes a call on: the C and C++ runtimes, the
// loader, a sanitizer's interceptors.
bool go_between(const char* path);

}  // namespace cudaleak::reachability
