// Device patches for the device_heap option, compiled with
// `nvcc --fatbin --compile-as-tools-patch` and loaded through the Compute
// Sanitizer API (sanitizerAddPatchesFromFile); each device-side malloc and
// free of a patched kernel calls one of them with the launch's buffer.
#include <stdint.h>

#include "device_heap_events.h"

typedef int SanitizerPatchResult;  // SANITIZER_PATCH_SUCCESS = 0

static __device__ __forceinline__ void record(void* userdata, uint32_t type, uint64_t pc, uint64_t address,
                                              uint64_t bytes) {
  CudaleakDeviceHeapBuffer* buffer = (CudaleakDeviceHeapBuffer*)userdata;
  if (!buffer) return;
  uint32_t i = atomicAdd(&buffer->next, 1u);
  if (i >= buffer->capacity) return;
  CudaleakDeviceHeapEvent& e = buffer->events[i];
  e.address = address;
  e.bytes = bytes;
  e.pc = pc;
  uint64_t block = blockIdx.x + uint64_t(gridDim.x) * (blockIdx.y + uint64_t(gridDim.y) * blockIdx.z);
  uint64_t in_block = threadIdx.x + uint64_t(blockDim.x) * (threadIdx.y + uint64_t(blockDim.y) * threadIdx.z);
  e.thread = uint32_t(block * blockDim.x * blockDim.y * blockDim.z + in_block);
  __threadfence_system();
  e.type = type;  // last: the host reads an event whose type is set as complete
}

extern "C" __device__ __noinline__ SanitizerPatchResult cudaleak_device_malloc(void* userdata, uint64_t pc,
                                                                               void* allocated, uint64_t bytes) {
  record(userdata, CUDALEAK_DEVICE_HEAP_MALLOC, pc, (uint64_t)(uintptr_t)allocated, bytes);
  return 0;
}

extern "C" __device__ __noinline__ SanitizerPatchResult cudaleak_device_free(void* userdata, uint64_t pc, void* ptr) {
  record(userdata, CUDALEAK_DEVICE_HEAP_FREE, pc, (uint64_t)(uintptr_t)ptr, 0);
  return 0;
}
