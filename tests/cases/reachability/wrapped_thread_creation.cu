// BUILD: %nvcc %S/host_function_thread.cu %s -o %t/prog -ldl
// BUILD: %nvcc %S/host_function_thread.cu -o %t/plain
// BUILD: ${CXX:-g++} -x c++ -shared -fPIC -O0 %s -o %t/libwrap.so -ldl
// RUN: %run -o %t/own.json -- %t/prog 2>&1 | grep -v '^ '
// CHECK-DAG: host function ran 1 time
// CHECK-DAG: pthread_create passed on by a wrapper
// CHECK-DAG: definitely lost: 1 stream never destroyed, created by
// CHECK-NONE: Still reachable
// The same with the wrapper in a library the user preloads: the launcher
// puts cudaleak first, so the wrapper comes after it here...
// RUN: LD_PRELOAD=%t/libwrap.so %run -o %t/preloaded.json -- %t/plain 2>&1 | grep -v '^ '
// CHECK-DAG: host function ran 1 time
// CHECK-DAG: pthread_create passed on by a wrapper
// CHECK-DAG: definitely lost: 1 stream never destroyed, created by
// CHECK-NONE: Still reachable
// ...and under plain LD_PRELOAD the user may put it before cudaleak.
// RUN: mkdir -p %t/before && LD_PRELOAD=%t/libwrap.so:%build/lib/libcudaleak.so LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda CUDALEAK_OPTIONS=output=%t/before/r.json %t/plain 2>&1 | grep -v '^ '
// CHECK-DAG: host function ran 1 time
// CHECK-DAG: pthread_create passed on by a wrapper
// CHECK-DAG: definitely lost: 1 stream never destroyed, created by
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
// The program is host_function_thread.cu's; this file is the wrapper, linked
// into it or preloaded.
#include <dlfcn.h>
#include <pthread.h>

#include <cstdio>

using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);

static int g_passed_on = 0;
extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg) {
  static CreateFn next = reinterpret_cast<CreateFn>(dlsym(RTLD_NEXT, "pthread_create"));
  const int status = next(thread, attr, start, arg);  // not a tail call: the wrapper keeps its frame
  if (status == 0) ++g_passed_on;
  return status;
}

__attribute__((destructor)) static void say() {
  if (g_passed_on) std::fprintf(stderr, "pthread_create passed on by a wrapper\n");
}
