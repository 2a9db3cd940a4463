// The driver API: a context created and destroyed, with the memory it owned
// never freed. The teardown released it; it is reported as a leak that was
// still alive when its context went, and the context itself is no leak.
// RUN: --error-exitcode 23
// EXIT: 23
// STDERR: 3.0 MiB of device memory in 1 allocation never freed, created by cuMemAlloc_v2 on device 0 (still alive when released by context_destroy)
// STDERR: context_teardown.cu:17
// REPORT: len(leaks("context")) == 0
// REPORT: [(g["bytes"], g["released_by"]) for g in leaks("device")] == [(3 << 20, "context_destroy")]
#include <cuda.h>

int main() {
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuCtxCreate(&ctx, nullptr, 0, dev)) return 2;
  CUdeviceptr p = 0;
  if (cuMemAlloc(&p, 3 << 20)) return 2;
  cuCtxDestroy(ctx);
  return 0;
}
