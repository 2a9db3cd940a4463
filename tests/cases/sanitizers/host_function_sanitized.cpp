// REQUIRES: simulated
// BUILD: ${CXX:-g++} -std=c++17 -fsanitize=address -O1 -g -I${CUDA_ROOT:-/usr/local/cuda}/include %s -o %t/prog -L${CUDA_ROOT:-/usr/local/cuda}/lib64 -lcudart -pthread
// RUN: %run -o %t/r.json -- %t/prog > %t/out.txt 2> %t/err.txt; echo "status $?"; cat %t/out.txt %t/err.txt
// CHECK: status 0
// CHECK: host function ran 1 time
// CHECK: definitely lost: 1 stream never destroyed, created by
// CHECK: serve_once
// CHECK-NONE: Still reachable
// CHECK-NONE: Sanitizer
//
// With ASan (g++'s shared runtime, which intercepts pthread_create too) in
// the process, the driver's host-function thread (started through
// std::thread by the simulated driver, so that its creator is found by the
// stack walk) is still no root: the stream dropped in serve_once is
// definitely lost, as without a sanitizer (reachability/host_function_
// thread.cu). Not so under TSan: its interceptor starts the thread through
// the C library itself, never through cudaleak's pthread_create, and the
// thread stays a root (docs/ci.md#lost-or-still-reachable).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

static void CUDART_CB note(void* data) { ++*static_cast<int*>(data); }
static int runs = 0;

__attribute__((noinline)) void serve_once() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaLaunchHostFunc(stream, note, &runs);
  cudaStreamSynchronize(stream);
}

__attribute__((noinline)) void clear_stack() {
  volatile char pad[64 * 1024];
  std::memset(const_cast<char*>(pad), 0, sizeof pad);
}

int main() {
  serve_once();
  clear_stack();
  std::printf("host function ran %d time(s)\n", runs);
  return 0;
}
