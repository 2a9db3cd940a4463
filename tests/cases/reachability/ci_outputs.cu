// BUILD: %nvcc %s -o %t/prog
// JUnit: a still reachable group is skipped with where it is referenced from;
// the lost one fails, said so.
// RUN: %run --junit %t/j.xml --sarif %t/s.sarif -o %t/r.json -- %t/prog
// RUN: cat %t/j.xml
// CHECK: <failure type="device-leak" message="device leak: 1 resource, 4.0 MiB, created by cudaMalloc, definitely lost">
// CHECK: <skipped message="device leak: 1 resource, 1.0 MiB, created by cudaMalloc, still reachable (referenced from g_kept (prog)); not counted by the gate (leak_kinds=all counts it)"/>
// SARIF: one result per counted group; with leak_kinds=all the still reachable one is a warning.
// RUN: cat %t/s.sarif
// CHECK: "reachability": "definitely_lost"
// CHECK-NONE: still_reachable
// RUN: %run --leak-kinds all --sarif %t/all.sarif --annotations github -o %t/all.json -- %t/prog
// CHECK: ::error
// CHECK: definitely lost
// CHECK: ::warning
// CHECK: still reachable (referenced from g_kept (prog))
// RUN: cat %t/all.sarif
// CHECK: "level": "warning"
// CHECK: "reachability": "still_reachable"
// CHECK: "referencedFrom": "g_kept (prog)"
// The JSON read back: fields and the HTML page's tags.
// RUN: cat %t/r.json
// CHECK: "reachability": "definitely_lost"
// CHECK: "reachability": "still_reachable"
// CHECK: "referenced_from": "g_kept (prog)"
// CHECK: "bytes_scanned":
// CHECK: "reachable_bytes": 1048576
// RUN: %report %t/r.json --format html -o %t/r.html
// RUN: grep -o -e "tag lost" -e "still_reachable" -e "tag reach" %t/r.html
// CHECK: still_reachable
// CHECK: tag lost
// CHECK: tag reach
// A merge of the report keeps each group's class.
// RUN: %cudaleak merge %t/r.json -o %t/m.json
// RUN: %report %t/m.json
// CHECK: definitely lost: 4.0 MiB
// CHECK: referenced from g_kept (prog)
#include <cstring>

#include <cuda_runtime.h>

void* g_kept;

__attribute__((noinline)) void lose() {
  void* p = nullptr;
  cudaMalloc(&p, 4 << 20);
}

__attribute__((noinline)) void clear_stack() {
  volatile char pad[256 * 1024];
  std::memset(const_cast<char*>(pad), 0, sizeof pad);
}

int main() {
  lose();
  cudaMalloc(&g_kept, 1 << 20);
  clear_stack();
  return 0;
}
