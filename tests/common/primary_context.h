// The driver API programs' first steps: initialise, and make device 0's
// primary context current, checking each call (check_call.h).
#pragma once
#include <cuda.h>

#include "check_call.h"

inline CUdevice use_primary_context() {
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  return dev;
}
