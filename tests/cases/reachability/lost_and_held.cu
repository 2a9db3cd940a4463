// BUILD: %nvcc %s -o %t/prog
// RUN: %run -o %t/r.json -- %t/prog
// CHECK: definitely lost: 4.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc on device 0:
// CHECK: lose_in_local
// CHECK-RE: definitely lost: 1 event never destroyed, created by cudaEventCreate(WithFlags)? on device 0:
// CHECK: Still reachable at exit (alive and referenced from the program's memory; not counted by the gate
// CHECK-RE: 2\.0 MiB of device memory in 1 allocation, created by cudaMalloc at main \(lost_and_held\.cu:\d+\) on device 0, referenced from g_cache \(prog\)
// CHECK-RE: 1\.0 MiB of device memory in 1 allocation, created by cudaMalloc at main \(lost_and_held\.cu:\d+\) on device 0, referenced from a heap block reached from g_holder \(prog\)
// CHECK: definitely lost: 4.0 MiB in 2 resources; still reachable: 3.0 MiB in 4 resources
// CHECK: Still reachable: 4 / 3.0 MiB.
// The report read back from its JSON says the same.
// RUN: %report %t/r.json
// CHECK: definitely lost: 4.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc on device 0:
// CHECK: referenced from g_cache (prog)
// CHECK: definitely lost: 4.0 MiB in 2 resources; still reachable: 3.0 MiB in 4 resources
// The lost ones fail the default gate (lost_and_held_static.sh: the static cudart on a GPU).
// RUN(exit=9): %run --error-exitcode 9 -o %t/gate.json -- %t/prog
// CHECK: leak gate failed
//
// Valgrind's two classes of a leak, for device memory and handles: what no
// global, stack or heap block refers to any more (a pointer in a local of a
// function that returned, an event created and forgotten) is definitely
// lost; what a global holds, itself or through a heap object, still
// reachable. The stack below main is cleared before exit, so that no stale
// copy of the lost pointer stays where the exit path's frames will lie.
#include <cstring>

#include <cuda_runtime.h>

float* g_cache;  // a buffer the program keeps for its whole life
struct Holder {
  void* buffer;
  cudaStream_t stream;
};
Holder* g_holder;       // a heap object reached from a global
cudaStream_t g_stream;  // a handle in a global

__attribute__((noinline)) void lose_in_local() {
  void* lost = nullptr;
  cudaMalloc(&lost, 4 << 20);
}

__attribute__((noinline)) void forget_event() {
  cudaEvent_t e;
  cudaEventCreate(&e);
}

__attribute__((noinline)) void clear_stack() {
  volatile char pad[256 * 1024];
  std::memset(const_cast<char*>(pad), 0, sizeof pad);
}

int main() {
  lose_in_local();
  forget_event();
  cudaMalloc(reinterpret_cast<void**>(&g_cache), 2 << 20);
  g_holder = new Holder;
  cudaMalloc(&g_holder->buffer, 1 << 20);
  cudaStreamCreate(&g_holder->stream);
  cudaStreamCreate(&g_stream);
  clear_stack();
  return 0;
}
