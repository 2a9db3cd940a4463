// BUILD: %nvcc %s -o %t/prog -lcuda
// RUN(exit=23): %run --error-exitcode 23 -o %t/r.json -- %t/prog
// CHECK: 3.0 MiB of device memory in 1 allocation never freed, created by cuMemAlloc_v2 on device 0 (still alive when released by context_destroy)
// CHECK: context_teardown.cu:%line:alloc
// RUN: %python %root/tests/cases/tools/report_expr.py %t/r.json 'len(leaks("context")) == 0' '[(g["bytes"], g["released_by"]) for g in leaks("device")] == [(3 << 20, "context_destroy")]'
// CHECK: holds: len(leaks("context")) == 0
// CHECK: holds: [(g["bytes"], g["released_by"]) for g in leaks("device")] == [(3 << 20, "context_destroy")]
// The driver API: a context created and destroyed, with the memory it owned
// never freed. The teardown released it; it is reported as a leak that was
// still alive when its context went, and the context itself is no leak.
#include <cuda.h>

int main() {
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuCtxCreate(&ctx, nullptr, 0, dev)) return 2;
  CUdeviceptr p = 0;
  if (cuMemAlloc(&p, 3 << 20)) return 2;  // LINE:alloc
  cuCtxDestroy(ctx);
  return 0;
}
