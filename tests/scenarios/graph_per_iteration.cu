// A new CUDA graph built and instantiated on every iteration and never
// destroyed (as one of NVIDIA's samples does): both the graphs and their
// executable graphs are leaks, counted per iteration.
// RUN: --error-exitcode 23
// ARGS: 6
// EXIT: 23
// STDERR: 6 graphs never destroyed
// STDERR: 6 executable graphs never destroyed
// REPORT: sum(g["count"] for g in leaks("graph", "build_step")) == 6
// REPORT: sum(g["count"] for g in leaks("graph_exec", "build_step")) == 6
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
