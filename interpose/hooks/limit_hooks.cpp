// Context limits: cudaDeviceSetLimit reaches the driver as cuCtxSetLimit. A
// limit that reserves device memory (heap, stacks, printf buffer, pending
// launches) is recorded as memory the context holds (runtime/limits.h).
#include "interpose/hooks/hook.h"
#include "interpose/runtime/limits.h"

using namespace cudaleak;

CUDALEAK_EXPORT CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value) {
  Hook<HookId::cuCtxSetLimit> hook;
  CUresult r = hook.real(limit, value);
  if (r == CUDA_SUCCESS && hook.tracking())
    context_limit_set(HookId::cuCtxSetLimit, limit, tracker::current_placement());
  return r;
}
