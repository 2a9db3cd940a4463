// Streams and events of the simulated driver. Work is synchronous, so
// synchronisation calls only validate their handles.
#include "tests/simcuda/driver/sim_cuda.h"
#include "tests/simcuda/driver/sim_state.h"

using namespace simcuda;

namespace {
CUresult stream_create(CUstream* stream) {
  if (!stream) return CUDA_ERROR_INVALID_VALUE;
  CUcontext ctx = current_context();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  *stream = reinterpret_cast<CUstream>(new_handle(Object::Stream, device_of(ctx), ctx));
  return CUDA_SUCCESS;
}

CUresult destroy(void* handle, Object type) {
  if (!valid(handle, type)) return CUDA_ERROR_INVALID_HANDLE;
  static_cast<Handle*>(handle)->alive = false;
  return CUDA_SUCCESS;
}
}  // namespace

SIM_EXPORT CUresult cuStreamCreate(CUstream* stream, unsigned int) {
  SIM_ENTRY("cuStreamCreate");
  return stream_create(stream);
}
SIM_EXPORT CUresult cuStreamCreateWithPriority(CUstream* stream, unsigned int, int) {
  SIM_ENTRY("cuStreamCreateWithPriority");
  return stream_create(stream);
}
SIM_EXPORT CUresult cuGreenCtxStreamCreate(CUstream* stream, CUgreenCtx ctx, unsigned int, int) {
  SIM_ENTRY("cuGreenCtxStreamCreate");
  if (!stream || !valid(ctx, Object::GreenContext)) return CUDA_ERROR_INVALID_VALUE;
  auto* green = reinterpret_cast<Handle*>(ctx);
  *stream = reinterpret_cast<CUstream>(new_handle(Object::Stream, green->device, nullptr));
  return CUDA_SUCCESS;
}
SIM_EXPORT CUresult cuStreamDestroy(CUstream stream) {
  SIM_ENTRY("cuStreamDestroy");
  return destroy(stream, Object::Stream);
}
SIM_EXPORT CUresult cuStreamDestroy_v2(CUstream stream) {
  SIM_ENTRY("cuStreamDestroy_v2");
  return destroy(stream, Object::Stream);
}
SIM_EXPORT CUresult cuStreamSynchronize(CUstream stream) {
  SIM_ENTRY("cuStreamSynchronize");
  if (stream && stream != CU_STREAM_PER_THREAD && stream != CU_STREAM_LEGACY && !valid(stream, Object::Stream))
    return CUDA_ERROR_INVALID_HANDLE;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuEventCreate(CUevent* event, unsigned int) {
  SIM_ENTRY("cuEventCreate");
  if (!event) return CUDA_ERROR_INVALID_VALUE;
  CUcontext ctx = current_context();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  *event = reinterpret_cast<CUevent>(new_handle(Object::Event, device_of(ctx), ctx));
  return CUDA_SUCCESS;
}
SIM_EXPORT CUresult cuEventDestroy(CUevent event) {
  SIM_ENTRY("cuEventDestroy");
  return destroy(event, Object::Event);
}
SIM_EXPORT CUresult cuEventDestroy_v2(CUevent event) {
  SIM_ENTRY("cuEventDestroy_v2");
  return destroy(event, Object::Event);
}
SIM_EXPORT CUresult cuEventRecord(CUevent event, CUstream) {
  SIM_ENTRY("cuEventRecord");
  return valid(event, Object::Event) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
SIM_EXPORT CUresult cuEventSynchronize(CUevent event) {
  SIM_ENTRY("cuEventSynchronize");
  return valid(event, Object::Event) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
