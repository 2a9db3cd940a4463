// The one list of hooked driver entry points. It drives the HookId enum, the
// typed real-function slots, the dlsym and cuGetProcAddress substitution and
// the names in reports. Each row is one ABI variant, exported under the name
// the real libcuda.so.1 exports it.
#pragma once
#include <cstdint>

#include "cuda_api.h"

// X(exported symbol, name looked up with cuGetProcAddress, ABI version, per-thread stream variant, PFN type)
#define CUDALEAK_HOOKS(X)                                                                              \
  X(cuGetProcAddress, "cuGetProcAddress", 11030, false, PFN_cuGetProcAddress_v11030)                   \
  X(cuGetProcAddress_v2, "cuGetProcAddress", 12000, false, PFN_cuGetProcAddress_v12000)                \
  X(cuMemAlloc_v2, "cuMemAlloc", 3020, false, PFN_cuMemAlloc_v3020)                                    \
  X(cuMemAllocPitch_v2, "cuMemAllocPitch", 3020, false, PFN_cuMemAllocPitch_v3020)                     \
  X(cuMemFree_v2, "cuMemFree", 3020, false, PFN_cuMemFree_v3020)                                       \
  X(cuMemAllocHost_v2, "cuMemAllocHost", 3020, false, PFN_cuMemAllocHost_v3020)                        \
  X(cuMemHostAlloc, "cuMemHostAlloc", 2020, false, PFN_cuMemHostAlloc_v2020)                           \
  X(cuMemFreeHost, "cuMemFreeHost", 2000, false, PFN_cuMemFreeHost_v2000)                              \
  X(cuMemHostRegister, "cuMemHostRegister", 4000, false, PFN_cuMemHostRegister_v4000)                  \
  X(cuMemHostRegister_v2, "cuMemHostRegister", 6050, false, PFN_cuMemHostRegister_v6050)               \
  X(cuMemHostUnregister, "cuMemHostUnregister", 4000, false, PFN_cuMemHostUnregister_v4000)            \
  X(cuMemAllocManaged, "cuMemAllocManaged", 6000, false, PFN_cuMemAllocManaged_v6000)                  \
  X(cuMemAllocAsync, "cuMemAllocAsync", 11020, false, PFN_cuMemAllocAsync_v11020)                      \
  X(cuMemAllocAsync_ptsz, "cuMemAllocAsync", 11020, true, PFN_cuMemAllocAsync_v11020_ptsz)             \
  X(cuMemAllocFromPoolAsync, "cuMemAllocFromPoolAsync", 11020, false, PFN_cuMemAllocFromPoolAsync_v11020) \
  X(cuMemAllocFromPoolAsync_ptsz, "cuMemAllocFromPoolAsync", 11020, true,                              \
    PFN_cuMemAllocFromPoolAsync_v11020_ptsz)                                                           \
  X(cuMemFreeAsync, "cuMemFreeAsync", 11020, false, PFN_cuMemFreeAsync_v11020)                         \
  X(cuMemFreeAsync_ptsz, "cuMemFreeAsync", 11020, true, PFN_cuMemFreeAsync_v11020_ptsz)                \
  X(cuMemPoolCreate, "cuMemPoolCreate", 11020, false, PFN_cuMemPoolCreate_v11020)                      \
  X(cuMemPoolDestroy, "cuMemPoolDestroy", 11020, false, PFN_cuMemPoolDestroy_v11020)                   \
  X(cuMemCreate, "cuMemCreate", 10020, false, PFN_cuMemCreate_v10020)                                  \
  X(cuMemRelease, "cuMemRelease", 10020, false, PFN_cuMemRelease_v10020)                               \
  X(cuMemRetainAllocationHandle, "cuMemRetainAllocationHandle", 11000, false,                          \
    PFN_cuMemRetainAllocationHandle_v11000)                                                            \
  X(cuMemAddressReserve, "cuMemAddressReserve", 10020, false, PFN_cuMemAddressReserve_v10020)          \
  X(cuMemAddressFree, "cuMemAddressFree", 10020, false, PFN_cuMemAddressFree_v10020)                   \
  X(cuMemMap, "cuMemMap", 10020, false, PFN_cuMemMap_v10020)                                           \
  X(cuMemUnmap, "cuMemUnmap", 10020, false, PFN_cuMemUnmap_v10020)                                     \
  X(cuArrayCreate_v2, "cuArrayCreate", 3020, false, PFN_cuArrayCreate_v3020)                           \
  X(cuArray3DCreate_v2, "cuArray3DCreate", 3020, false, PFN_cuArray3DCreate_v3020)                     \
  X(cuArrayDestroy, "cuArrayDestroy", 2000, false, PFN_cuArrayDestroy_v2000)                           \
  X(cuMipmappedArrayCreate, "cuMipmappedArrayCreate", 5000, false, PFN_cuMipmappedArrayCreate_v5000)   \
  X(cuMipmappedArrayDestroy, "cuMipmappedArrayDestroy", 5000, false, PFN_cuMipmappedArrayDestroy_v5000) \
  X(cuCtxCreate, "cuCtxCreate", 2000, false, PFN_cuCtxCreate_v2000)                                    \
  X(cuCtxCreate_v2, "cuCtxCreate", 3020, false, PFN_cuCtxCreate_v3020)                                 \
  X(cuCtxCreate_v3, "cuCtxCreate", 11040, false, PFN_cuCtxCreate_v11040)                               \
  X(cuCtxCreate_v4, "cuCtxCreate", 12050, false, PFN_cuCtxCreate_v12050)                               \
  X(cuCtxDestroy, "cuCtxDestroy", 2000, false, PFN_cuCtxDestroy_v2000)                                 \
  X(cuCtxDestroy_v2, "cuCtxDestroy", 4000, false, PFN_cuCtxDestroy_v4000)                              \
  X(cuGreenCtxCreate, "cuGreenCtxCreate", 12040, false, PFN_cuGreenCtxCreate_v12040)                   \
  X(cuGreenCtxDestroy, "cuGreenCtxDestroy", 12040, false, PFN_cuGreenCtxDestroy_v12040)                \
  X(cuGreenCtxStreamCreate, "cuGreenCtxStreamCreate", 12050, false, PFN_cuGreenCtxStreamCreate_v12050) \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", 7000, false, PFN_cuDevicePrimaryCtxRetain_v7000) \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease", 7000, false,                               \
    PFN_cuDevicePrimaryCtxRelease_v7000)                                                               \
  X(cuDevicePrimaryCtxRelease_v2, "cuDevicePrimaryCtxRelease", 11000, false,                           \
    PFN_cuDevicePrimaryCtxRelease_v11000)                                                              \
  X(cuDevicePrimaryCtxReset, "cuDevicePrimaryCtxReset", 7000, false, PFN_cuDevicePrimaryCtxReset_v7000) \
  X(cuDevicePrimaryCtxReset_v2, "cuDevicePrimaryCtxReset", 11000, false,                               \
    PFN_cuDevicePrimaryCtxReset_v11000)                                                                \
  X(cuStreamCreate, "cuStreamCreate", 2000, false, PFN_cuStreamCreate_v2000)                           \
  X(cuStreamCreateWithPriority, "cuStreamCreateWithPriority", 5050, false,                             \
    PFN_cuStreamCreateWithPriority_v5050)                                                              \
  X(cuStreamDestroy, "cuStreamDestroy", 2000, false, PFN_cuStreamDestroy_v2000)                        \
  X(cuStreamDestroy_v2, "cuStreamDestroy", 4000, false, PFN_cuStreamDestroy_v4000)                     \
  X(cuEventCreate, "cuEventCreate", 2000, false, PFN_cuEventCreate_v2000)                              \
  X(cuEventDestroy, "cuEventDestroy", 2000, false, PFN_cuEventDestroy_v2000)                           \
  X(cuEventDestroy_v2, "cuEventDestroy", 4000, false, PFN_cuEventDestroy_v4000)

namespace cudaleak {

enum class HookId : uint16_t {
#define CUDALEAK_HOOK_ENUM(sym, lookup, version, ptsz, pfn) sym,
  CUDALEAK_HOOKS(CUDALEAK_HOOK_ENUM)
#undef CUDALEAK_HOOK_ENUM
      Count
};
inline constexpr int kHookCount = static_cast<int>(HookId::Count);

template <HookId>
struct HookTraits;
#define CUDALEAK_HOOK_TRAITS(sym, lookup, version, ptsz, pfn) \
  template <>                                                 \
  struct HookTraits<HookId::sym> {                            \
    using Fn = pfn;                                           \
  };
CUDALEAK_HOOKS(CUDALEAK_HOOK_TRAITS)
#undef CUDALEAK_HOOK_TRAITS

struct HookInfo {
  const char* symbol;  // exported name, e.g. "cuMemAllocAsync_ptsz"
  const char* lookup;  // cuGetProcAddress name, e.g. "cuMemAllocAsync"
  int version;         // ABI version of this variant
  bool per_thread;     // the _ptsz/_ptds variant
  void* wrapper;       // our exported function
};

const HookInfo& hook_info(HookId id);
const char* hook_name(HookId id);

// Hook for an exported name passed to dlsym, or -1.
int hook_by_symbol(const char* symbol);

// Hook that stands in for what cuGetProcAddress returns for (name, version,
// per-thread flag): the newest variant whose version is <= `version`. -1 when
// the name is not hooked or the version predates every hooked variant.
int hook_for_lookup(const char* name, int version, bool per_thread);

// The real driver function behind a hook: recorded from dlsym/cuGetProcAddress,
// or resolved on first use for programs that call the exported symbol directly.
void* real_function(HookId id);
void remember_real(int id, void* fn);

}  // namespace cudaleak
