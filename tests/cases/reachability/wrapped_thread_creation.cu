// BUILD: %nvcc %s -o %t/prog -ldl
// BUILD: %nvcc -DNO_WRAPPER %s -o %t/plain
// BUILD: ${CXX:-g++} -x c++ -DAS_PRELOAD -shared -fPIC -O0 %s -o %t/libwrap.so -ldl
// RUN: %run -o %t/own.json -- %t/prog
// CHECK: host function ran 1 time
// CHECK: pthread_create passed on by a wrapper
// CHECK: definitely lost: 1 stream never destroyed, created by
// CHECK-NONE: Still reachable
// The same with the wrapper in a library the user preloads: the launcher
// puts cudaleak first, so the wrapper comes after it here...
// RUN: LD_PRELOAD=%t/libwrap.so %run -o %t/preloaded.json -- %t/plain
// CHECK: host function ran 1 time
// CHECK: definitely lost: 1 stream never destroyed, created by
// CHECK-NONE: Still reachable
// CHECK: pthread_create passed on by a preloaded wrapper
// ...and under plain LD_PRELOAD the user may put it before cudaleak.
// RUN: mkdir -p %t/before && LD_PRELOAD=%t/libwrap.so:%build/lib/libcudaleak.so LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda CUDALEAK_OPTIONS=output=%t/before/r.json %t/plain
// CHECK: host function ran 1 time
// CHECK: pthread_create passed on by a preloaded wrapper
// CHECK: definitely lost: 1 stream never destroyed, created by
// CHECK-NONE: Still reachable
// A thread the program starts through its wrapper is still the program's.
// RUN: %run -o %t/held.json -- %t/prog held
// CHECK: Still reachable at exit
// CHECK: definitely lost: 0 resources; still reachable: 1 resource
//
// A program (or a tool the user preloads: a profiler, a tracer) may define
// pthread_create itself and pass each call on through dlsym(RTLD_NEXT). The
// driver's host-function thread is then created by the wrapper as far as
// cudaleak's pthread_create can tell from its direct caller; the wrapper
// only passes the call on, so the thread is still the CUDA library's and
// its stack is no root: the stream dropped in serve_once is definitely lost.
#include <dlfcn.h>
#include <pthread.h>

#include <cstdio>

using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

#if defined(AS_PRELOAD) || !defined(NO_WRAPPER)
static int g_passed_on = 0;
extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg) {
  static CreateFn next = reinterpret_cast<CreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
  const int status = next(thread, attr, start, arg);  // not a tail call: the wrapper keeps its frame
  if (status == 0) ++g_passed_on;
  return status;
}
#endif

#ifdef AS_PRELOAD
__attribute__((destructor)) static void say() {
  if (g_passed_on) std::fprintf(stderr, "pthread_create passed on by a preloaded wrapper\n");
}
#else
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

#include <cuda_runtime.h>

static void CUDART_CB note(void* data) { ++*static_cast<int*>(data); }
static int runs = 0;

__attribute__((noinline)) cudaStream_t serve_once() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaLaunchHostFunc(stream, note, &runs);
  cudaStreamSynchronize(stream);
  return stream;
}

struct Box {
  cudaStream_t stream;
};
std::mutex g_mutex;
std::condition_variable g_ready;
bool g_holding = false;

__attribute__((noinline)) void clear_stack() {
  volatile char pad[256 * 1024];
  std::memset(const_cast<char*>(pad), 0, sizeof pad);
}

int main(int argc, char** argv) {
  const bool held = argc > 1 && std::strcmp(argv[1], "held") == 0;
  if (!held) {
    serve_once();
  } else {
    auto* box = new Box{serve_once()};
    std::thread([box] {
      Box* volatile mine = box;  // this thread's reference, on its stack while it sleeps
      {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_holding = true;
      }
      g_ready.notify_all();
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(mine ? 1 : 2));
    }).detach();
    std::unique_lock<std::mutex> lock(g_mutex);
    g_ready.wait(lock, [] { return g_holding; });
    box = nullptr;
  }
  clear_stack();
  std::printf("host function ran %d time(s)\n", runs);
#ifndef NO_WRAPPER
  if (g_passed_on) std::printf("pthread_create passed on by a wrapper\n");
#endif
  return 0;
}
#endif
