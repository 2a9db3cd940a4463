// BUILD: %nvcc %s -o %t/prog -lcuda
// RUN(exit=23): %run --error-exitcode 23 -o %t/r.json -- %t/prog 6
// CHECK: 6 graphs never destroyed
// CHECK: 6 executable graphs never destroyed
// RUN: %python %root/tests/cases/tools/report_expr.py %t/r.json 'sum(g["count"] for g in leaks("graph", "build_step")) == 6' 'sum(g["count"] for g in leaks("graph_exec", "build_step")) == 6'
// CHECK: holds: sum(g["count"] for g in leaks("graph", "build_step")) == 6
// CHECK: holds: sum(g["count"] for g in leaks("graph_exec", "build_step")) == 6
// A new CUDA graph built and instantiated on every iteration and never
// destroyed (as one of NVIDIA's samples does): both the graphs and their
// executable graphs are leaks, counted per iteration.
#include <cuda.h>

#include <cstdlib>

__attribute__((noinline)) static bool build_step() {
  CUgraph graph;
  CUgraphExec exec;
  if (cuGraphCreate(&graph, 0)) return false;
  return cuGraphInstantiate(&exec, graph, 0) == CUDA_SUCCESS;  // neither is ever destroyed
}

int main(int argc, char** argv) {
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx)) return 2;
  int steps = argc > 1 ? std::atoi(argv[1]) : 3;
  for (int i = 0; i < steps; ++i)
    if (!build_step()) return 2;
  return 0;
}
