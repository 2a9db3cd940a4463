// Error names and strings of the simulated runtime. The names come from the
// generated list of driver_types.h's cudaError_t (cudart_errors.def), so every
// code has its name; the real descriptions live only inside libcudart, so the
// codes a program commonly meets have the real wording and the rest their name.
#include "tests/simcuda/runtime/runtime_common.h"

RT_EXPORT const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define CUDART_ERROR(name) \
  case name:               \
    return #name;
#include "tests/simcuda/runtime/cudart_errors.def"
#undef CUDART_ERROR
  }
  return "unrecognized error code";  // as the real runtime answers a value it does not know
}

RT_EXPORT const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorDeviceUninitialized: return "invalid device context";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorUnknown: return "unknown error";
    default: break;
  }
  return cudaGetErrorName(error);
}
