// BUILD: %nvcc %s -o %t/prog
// Only still reachable resources: the gate counts definitely lost ones by
// default (as LeakSanitizer), so the program's status stands.
// RUN: %run --error-exitcode 7 -o %t/r.json -- %t/prog
// CHECK: no CUDA resources leaked (apart from still reachable ones, listed below)
// CHECK-RE: referenced from g_buffer \(prog\)
// CHECK-NONE: leak gate failed
// leak_kinds=all counts every live resource, as before.
// RUN(exit=7): %run --error-exitcode 7 --leak-kinds all -o %t/all.json -- %t/prog
// CHECK: counted by the gate: leak_kinds=all
// CHECK: leak gate failed: 1 leak group
// reachability=false: nothing is scanned, everything alive counts.
// RUN(exit=7): %run --error-exitcode 7 --reachability false -o %t/off.json -- %t/prog
// CHECK: 1.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc on device 0:
// CHECK-NONE: still reachable
// CHECK: leak gate failed: 1 leak group
// A lost allocation fails the default gate.
// RUN(exit=7): %run --error-exitcode 7 -o %t/lost.json -- %t/prog lose
// CHECK: definitely lost: 8.0 MiB of device memory
// CHECK: leak gate failed: 1 leak group
#include <cstring>

#include <cuda_runtime.h>

void* g_buffer;

__attribute__((noinline)) void lose() {
  void* p = nullptr;
  cudaMalloc(&p, 8 << 20);
}

__attribute__((noinline)) void clear_stack() {
  volatile char pad[256 * 1024];
  std::memset(const_cast<char*>(pad), 0, sizeof pad);
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "lose") == 0) lose();
  cudaMalloc(&g_buffer, 1 << 20);
  clear_stack();
  return 0;
}
