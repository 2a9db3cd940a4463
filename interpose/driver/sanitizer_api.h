// The few declarations of NVIDIA's Compute Sanitizer API (sanitizer.h, shipped
// under compute-sanitizer/include of a CUDA installation) that device_heap
// uses. The library is dlopened when the option is on: the preload links
// nothing of it. Values and layouts as in CUDA 12 and 13.
#pragma once
#include <cstddef>
#include <cstdint>

#include "interpose/driver/cuda_api.h"

namespace cudaleak::sanitizer {

using Result = int;  // SanitizerResult; 0 = SANITIZER_SUCCESS
using Subscriber = struct Subscriber_st*;
using StreamHandle = struct Stream_st*;
using LaunchHandle = struct Launch_st*;

enum Domain : int { kDomainResource = 3, kDomainLaunch = 5 };
enum ResourceCallback : int { kModuleLoaded = 9 };
enum LaunchCallback : int { kLaunchBegin = 1, kLaunchEnd = 3 };
enum Instruction : int { kDeviceSideMalloc = 11, kDeviceSideFree = 12 };

using Callback = void (*)(void* userdata, int domain, int cbid, const void* cbdata);

// Sanitizer_ResourceModuleData
struct ModuleData {
  CUcontext context;
  CUmodule module;
  size_t cubin_size;
  const char* cubin;
  void* library;
};

// Sanitizer_LaunchData
struct LaunchData {
  CUcontext context;
  CUstream stream;
  StreamHandle hstream;
  CUmodule module;
  CUfunction function;
  const char* function_name;
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t cluster[3];
  uint64_t grid_id;
  LaunchHandle launch;
  CUdevice device;
};

// Entry points, by their names in libsanitizer-public.so.
struct Api {
  Result (*subscribe)(Subscriber*, Callback, void*);
  Result (*enable_domain)(uint32_t, Subscriber, int);
  Result (*add_patches_from_file)(const char*, CUcontext);
  Result (*patch_instructions)(int, CUmodule, const char*);
  Result (*patch_module)(CUmodule);
  Result (*set_callback_data)(CUfunction, const void*);
  Result (*set_launch_callback_data)(LaunchHandle, CUfunction, StreamHandle, const void*);  // may be absent
  Result (*alloc_host)(CUcontext, void**, size_t);
  Result (*stream_synchronize)(StreamHandle);
  // Where a function's code starts in device memory (the base of a patch's
  // pc) and its size; may be absent, then no device line is read.
  Result (*get_function_pc_and_size)(CUmodule, const char*, uint64_t*, uint64_t*);
};

}  // namespace cudaleak::sanitizer
