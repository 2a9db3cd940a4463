// Threads that CUDA's libraries start themselves. The driver names most of
// its threads ("cuda-EvtHandlr"), but the one that runs host functions
// (cudaLaunchHostFunc, a graph's host node) keeps the program's name, and
// its stack holds the driver's own structures: the streams and events it
// serves. The reachability scan must not take them for the program's
// references, so pthread_create is interposed (the call is passed on
// unchanged: thread_creation.cpp) to note which threads a CUDA library
// started, by the first frame of the creator outside the C and C++
// runtimes, sanitizers and wrappers.
//
// A note is the thread's descriptor (its pthread_t: glibc keeps it at the
// top of the thread's stack mapping) with the start routine and argument it
// was given, which glibc keeps side by side in the descriptor. A note counts
// only while the descriptor still holds that pair: once the thread is gone
// and its stack unmapped, or reused by a thread of the program's (or one
// glibc starts itself, unseen), the note no longer holds, and nothing needs
// to be told when a thread ends.
#pragma once
#include <cstdint>

namespace cudaleak {

// Whether [begin, end) holds the descriptor of a live note.
bool started_by_cuda_library(uint64_t begin, uint64_t end);

// Notes a thread a CUDA library started: its descriptor, start routine and
// argument. When every slot is taken, notes that no longer hold make room.
void note_cuda_thread(uintptr_t descriptor, uintptr_t start, uintptr_t arg);

}  // namespace cudaleak
