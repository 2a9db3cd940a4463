// REQUIRES: simulated
// BUILD: ${CXX:-g++} -std=c++17 -fsanitize=address -O1 -g -I${CUDA_ROOT:-/usr/local/cuda}/include %s -o %t/prog -L${CUDA_ROOT:-/usr/local/cuda}/lib64 -lcudart -pthread
// RUN: %run -o %t/r.json -- %t/prog > %t/out.txt 2> %t/err.txt; echo "status $?"; cat %t/out.txt %t/err.txt
// CHECK: status 0
// CHECK: host function ran 1 time
// CHECK-RE: 1 stream(, created by| never destroyed)
// CHECK: serve_once
// CHECK-NONE: Sanitizer
//
// With ASan (g++'s shared runtime, which intercepts pthread_create too) the
// program runs as alone while cudaleak notes the threads the (simulated)
// driver starts through std::thread, and the stream dropped in serve_once
// is reported. Whether as definitely lost is not asserted: ASan's
// interceptor, after cudaleak's pthread_create, starts the thread with a
// start routine of its own, which the thread's descriptor then keeps, so
// cudaleak's note of it does not hold and the driver's thread stays a root
// (docs/ci.md#lost-or-still-reachable); under load the stream then reads
// one way or the other.
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
