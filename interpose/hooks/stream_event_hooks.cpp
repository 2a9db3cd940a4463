// Streams and events.
#include "interpose/hooks/hook.h"

using namespace cudaleak;
using tracker::current_placement;

CUDALEAK_EXPORT CUresult CUDAAPI cuStreamCreate(CUstream* stream, unsigned int flags) {
  return create_into_first<HookId::cuStreamCreate>(stream, flags);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuStreamCreateWithPriority(CUstream* stream, unsigned int flags, int priority) {
  return create_into_first<HookId::cuStreamCreateWithPriority>(stream, flags, priority);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuGreenCtxStreamCreate(CUstream* stream, CUgreenCtx green, unsigned int flags,
                                                        int priority) {
  Hook<HookId::cuGreenCtxStreamCreate> hook;
  CUresult r = hook.real(stream, green, flags, priority);
  if (r == CUDA_SUCCESS && hook.tracking() && stream) {
    // Owned by the green context: destroying it tears the stream down.
    tracker::Placement where{as_handle(green), current_placement().device};
    hook.created(as_handle(*stream), 0, where);
  }
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuStreamDestroy(CUstream stream) {
  return release_first<HookId::cuStreamDestroy>(stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuStreamDestroy_v2(CUstream stream) {
  return release_first<HookId::cuStreamDestroy_v2>(stream);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuEventCreate(CUevent* event, unsigned int flags) {
  return create_into_first<HookId::cuEventCreate>(event, flags);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuEventDestroy(CUevent event) { return release_first<HookId::cuEventDestroy>(event); }
CUDALEAK_EXPORT CUresult CUDAAPI cuEventDestroy_v2(CUevent event) {
  return release_first<HookId::cuEventDestroy_v2>(event);
}
