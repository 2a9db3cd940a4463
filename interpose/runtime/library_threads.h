// Threads that CUDA's libraries start themselves. The driver names most of
// its threads ("cuda-EvtHandlr"), but the one that runs host functions
// (cudaLaunchHostFunc, a graph's host node) keeps the program's name, and
// its stack holds the driver's own structures: the streams and events it
// serves. The reachability scan must not take them for the program's
// references, so pthread_create is interposed (the call is passed on
// unchanged) to note which threads a CUDA library started, by the first
// frame of the creator outside the C and C++ runtimes and sanitizers.
#pragma once
#include <cstdint>

namespace cudaleak {

// Whether [begin, end) holds the thread descriptor of a thread a CUDA library
// started: glibc keeps it at the top of the thread's stack mapping.
bool started_by_cuda_library(uint64_t begin, uint64_t end);

// Notes `thread` (a pthread_t) as started by a CUDA library or not; a thread
// descriptor reused by a later thread takes the later creator's class.
void note_thread_creator(unsigned long thread, bool cuda_library);

}  // namespace cudaleak
