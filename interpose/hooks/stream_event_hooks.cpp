// Streams and events.
#include "hook.h"

using namespace cudaleak;
using tracker::current_placement;

namespace {

template <HookId id>
CUresult destroy_stream(CUstream stream) {
  Hook<id> hook;
  return hook.release(Space::Stream, as_handle(stream), stream);
}

template <HookId id>
CUresult destroy_event(CUevent event) {
  Hook<id> hook;
  return hook.release(Space::Event, as_handle(event), event);
}

}  // namespace

CUDALEAK_EXPORT CUresult CUDAAPI cuStreamCreate(CUstream* stream, unsigned int flags) {
  Hook<HookId::cuStreamCreate> hook;
  CUresult r = hook.real(stream, flags);
  if (r == CUDA_SUCCESS && hook.tracking() && stream)
    tracker::created(HookId::cuStreamCreate, Kind::Stream, Space::Stream, as_handle(*stream), 0, current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuStreamCreateWithPriority(CUstream* stream, unsigned int flags, int priority) {
  Hook<HookId::cuStreamCreateWithPriority> hook;
  CUresult r = hook.real(stream, flags, priority);
  if (r == CUDA_SUCCESS && hook.tracking() && stream)
    tracker::created(HookId::cuStreamCreateWithPriority, Kind::Stream, Space::Stream, as_handle(*stream), 0,
                     current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuGreenCtxStreamCreate(CUstream* stream, CUgreenCtx green, unsigned int flags,
                                                        int priority) {
  Hook<HookId::cuGreenCtxStreamCreate> hook;
  CUresult r = hook.real(stream, green, flags, priority);
  if (r == CUDA_SUCCESS && hook.tracking() && stream) {
    // Owned by the green context: destroying it tears the stream down.
    tracker::Placement where{as_handle(green), current_placement().device};
    tracker::created(HookId::cuGreenCtxStreamCreate, Kind::Stream, Space::Stream, as_handle(*stream), 0, where);
  }
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuStreamDestroy(CUstream stream) {
  return destroy_stream<HookId::cuStreamDestroy>(stream);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuStreamDestroy_v2(CUstream stream) {
  return destroy_stream<HookId::cuStreamDestroy_v2>(stream);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuEventCreate(CUevent* event, unsigned int flags) {
  Hook<HookId::cuEventCreate> hook;
  CUresult r = hook.real(event, flags);
  if (r == CUDA_SUCCESS && hook.tracking() && event)
    tracker::created(HookId::cuEventCreate, Kind::Event, Space::Event, as_handle(*event), 0, current_placement());
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuEventDestroy(CUevent event) { return destroy_event<HookId::cuEventDestroy>(event); }
CUDALEAK_EXPORT CUresult CUDAAPI cuEventDestroy_v2(CUevent event) {
  return destroy_event<HookId::cuEventDestroy_v2>(event);
}
