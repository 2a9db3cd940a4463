// The simulated driver defines the real exported names, including the old ABI
// versions (cuCtxDestroy vs cuCtxDestroy_v2) that cuda.h hides behind macros.
#pragma once
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>

#define SIM_EXPORT extern "C" __attribute__((visibility("default")))
