// What every modelled runtime function shares: the export attribute, the
// thread's last error (cudaGetLastError) and the lazy initialisation.
#pragma once
#include <cuda_runtime_api.h>

#include "tests/simcuda/runtime/driver_table.h"

#define RT_EXPORT extern "C" __attribute__((visibility("default")))

namespace simrt {

inline thread_local cudaError_t t_last_error = cudaSuccess;

inline cudaError_t record(cudaError_t e) {
  if (e != cudaSuccess) t_last_error = e;
  return e;
}
// Driver and runtime codes share their numbers for every error the simulation produces.
inline cudaError_t record(CUresult r) { return record(static_cast<cudaError_t>(r)); }

}  // namespace simrt

// Lazy initialisation of every runtime call: driver loaded, primary context current.
#define RT_BEGIN()                                                                                    \
  if (CUresult init = simrt::ensure_context(); init != CUDA_SUCCESS)                                  \
    return record(init == CUDA_ERROR_NO_DEVICE ? cudaErrorNoDevice : static_cast<cudaError_t>(init)); \
  const simrt::DriverTable& d = *simrt::driver()
