// The few NVML entry points cudaleak uses, declared from NVML's stable ABI
// (nvml.h is not part of the CUDA Toolkit). libnvidia-ml.so.1 is loaded lazily
// with dlopen; the simulated GPU provides one with the same ABI.
#pragma once
#include <cstdint>

extern "C" {
typedef int nvmlReturn_t;
typedef struct nvmlDevice_st* nvmlDevice_t;
enum : int { NVML_SUCCESS = 0, NVML_ERROR_NOT_FOUND = 6, NVML_ERROR_INSUFFICIENT_SIZE = 7 };
inline constexpr unsigned long long NVML_VALUE_NOT_AVAILABLE = ~0ull;

typedef struct {
  unsigned long long total, free, used;
} nvmlMemory_t;

typedef struct {
  unsigned int pid;
  unsigned long long usedGpuMemory;  // NVML_VALUE_NOT_AVAILABLE when unknown (e.g. containers)
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
} nvmlProcessInfo_t;

typedef nvmlReturn_t (*nvmlInit_v2_fn)();
typedef nvmlReturn_t (*nvmlDeviceGetHandleByUUID_fn)(const char* uuid, nvmlDevice_t* device);
typedef nvmlReturn_t (*nvmlDeviceGetMemoryInfo_fn)(nvmlDevice_t device, nvmlMemory_t* memory);
typedef nvmlReturn_t (*nvmlDeviceGetComputeRunningProcesses_v3_fn)(nvmlDevice_t device, unsigned int* count,
                                                                   nvmlProcessInfo_t* infos);
typedef nvmlReturn_t (*nvmlSystemGetProcessName_fn)(unsigned int pid, char* name, unsigned int length);
}
