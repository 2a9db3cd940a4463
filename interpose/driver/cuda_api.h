// cuda.h with every ABI version of each entry point visible under its exported
// name (cuCtxDestroy and cuCtxDestroy_v2, cuMemAllocAsync and _ptsz), as the
// driver itself sees them, plus the PFN_* typedefs for each version.
#pragma once
#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <cudaTypedefs.h>

// Hooks are the only symbols the preload library exports (see exports.map).
#define CUDALEAK_EXPORT extern "C" __attribute__((visibility("default")))
