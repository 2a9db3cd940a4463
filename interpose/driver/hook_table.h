// The one list of hooked driver entry points. It drives the HookId enum, the
// typed real-function slots, the dlsym and cuGetProcAddress substitution and
// the names in reports. Each row is one ABI variant, exported under the name
// the real libcuda.so.1 exports it.
#pragma once
#include <atomic>
#include <cstdint>

#include "interpose/driver/cuda_api.h"
#include "interpose/driver/library_api.h"
#include "common/space.h"
#include "common/kinds.h"

// X(exported symbol, name looked up with cuGetProcAddress, ABI version, per-thread stream variant, PFN type,
//   role, kind created, handle space)
// role: Create (a new resource of `kind` in `space`), Release (ends one in
// `space`), Retain (adds a reference), Teardown (a context and what dies
// with it), Observe (changes how later creates are read: stream capture; or
// what the context reserves: its limits; or where managed memory lives; or
// what a memory pool keeps: its release threshold, a trim),
// Bind (changes the calling thread's current context: track/bound_context.h),
// Lookup (hands out entry points).
// clang-format off
#define CUDALEAK_HOOKS(X) \
  X(cuGetProcAddress, "cuGetProcAddress", 11030, false, PFN_cuGetProcAddress_v11030, Lookup, NoKind, NoSpace) \
  X(cuGetProcAddress_v2, "cuGetProcAddress", 12000, false, PFN_cuGetProcAddress_v12000, Lookup, NoKind, NoSpace) \
  X(cuMemAlloc_v2, "cuMemAlloc", 3020, false, PFN_cuMemAlloc_v3020, Create, Device, DevicePtr) \
  X(cuMemAllocPitch_v2, "cuMemAllocPitch", 3020, false, PFN_cuMemAllocPitch_v3020, Create, Device, DevicePtr) \
  X(cuMemFree_v2, "cuMemFree", 3020, false, PFN_cuMemFree_v3020, Release, NoKind, DevicePtr) \
  X(cuMemAllocHost_v2, "cuMemAllocHost", 3020, false, PFN_cuMemAllocHost_v3020, Create, Pinned, HostPtr) \
  X(cuMemHostAlloc, "cuMemHostAlloc", 2020, false, PFN_cuMemHostAlloc_v2020, Create, Pinned, HostPtr) \
  X(cuMemFreeHost, "cuMemFreeHost", 2000, false, PFN_cuMemFreeHost_v2000, Release, NoKind, HostPtr) \
  X(cuMemHostRegister, "cuMemHostRegister", 4000, false, PFN_cuMemHostRegister_v4000, Create, Registered, Registered) \
  X(cuMemHostRegister_v2, "cuMemHostRegister", 6050, false, PFN_cuMemHostRegister_v6050, Create, Registered, Registered) \
  X(cuMemHostUnregister, "cuMemHostUnregister", 4000, false, PFN_cuMemHostUnregister_v4000, Release, NoKind, Registered) \
  X(cuMemAllocManaged, "cuMemAllocManaged", 6000, false, PFN_cuMemAllocManaged_v6000, Create, Managed, DevicePtr) \
  X(cuMemAllocAsync, "cuMemAllocAsync", 11020, false, PFN_cuMemAllocAsync_v11020, Create, Async, DevicePtr) \
  X(cuMemAllocAsync_ptsz, "cuMemAllocAsync", 11020, true, PFN_cuMemAllocAsync_v11020_ptsz, Create, Async, DevicePtr) \
  X(cuMemAllocFromPoolAsync, "cuMemAllocFromPoolAsync", 11020, false, PFN_cuMemAllocFromPoolAsync_v11020, Create, Async, DevicePtr) \
  X(cuMemFreeAsync, "cuMemFreeAsync", 11020, false, PFN_cuMemFreeAsync_v11020, Release, NoKind, DevicePtr) \
  X(cuMemFreeAsync_ptsz, "cuMemFreeAsync", 11020, true, PFN_cuMemFreeAsync_v11020_ptsz, Release, NoKind, DevicePtr) \
  X(cuMemPoolCreate, "cuMemPoolCreate", 11020, false, PFN_cuMemPoolCreate_v11020, Create, Pool, Pool) \
  X(cuMemPoolDestroy, "cuMemPoolDestroy", 11020, false, PFN_cuMemPoolDestroy_v11020, Release, NoKind, Pool) \
  X(cuMemPoolImportFromShareableHandle, "cuMemPoolImportFromShareableHandle", 11020, false, PFN_cuMemPoolImportFromShareableHandle_v11020, Create, Pool, Pool) \
  X(cuMemPoolSetAttribute, "cuMemPoolSetAttribute", 11020, false, PFN_cuMemPoolSetAttribute_v11020, Observe, NoKind, NoSpace) \
  X(cuMemPoolTrimTo, "cuMemPoolTrimTo", 11020, false, PFN_cuMemPoolTrimTo_v11020, Observe, NoKind, NoSpace) \
  X(cuMemCreate, "cuMemCreate", 10020, false, PFN_cuMemCreate_v10020, Create, Vmm, Vmm) \
  X(cuMemRelease, "cuMemRelease", 10020, false, PFN_cuMemRelease_v10020, Release, NoKind, Vmm) \
  X(cuMemAddressReserve, "cuMemAddressReserve", 10020, false, PFN_cuMemAddressReserve_v10020, Create, VaReservation, VaReservation) \
  X(cuMemAddressFree, "cuMemAddressFree", 10020, false, PFN_cuMemAddressFree_v10020, Release, NoKind, VaReservation) \
  X(cuMemMap, "cuMemMap", 10020, false, PFN_cuMemMap_v10020, Create, Mapping, Mapping) \
  X(cuMemUnmap, "cuMemUnmap", 10020, false, PFN_cuMemUnmap_v10020, Release, NoKind, Mapping) \
  X(cuArrayCreate_v2, "cuArrayCreate", 3020, false, PFN_cuArrayCreate_v3020, Create, Array, Array) \
  X(cuArray3DCreate_v2, "cuArray3DCreate", 3020, false, PFN_cuArray3DCreate_v3020, Create, Array, Array) \
  X(cuArrayDestroy, "cuArrayDestroy", 2000, false, PFN_cuArrayDestroy_v2000, Release, NoKind, Array) \
  X(cuMipmappedArrayCreate, "cuMipmappedArrayCreate", 5000, false, PFN_cuMipmappedArrayCreate_v5000, Create, Array, Mipmapped) \
  X(cuMipmappedArrayDestroy, "cuMipmappedArrayDestroy", 5000, false, PFN_cuMipmappedArrayDestroy_v5000, Release, NoKind, Mipmapped) \
  X(cuCtxCreate, "cuCtxCreate", 2000, false, PFN_cuCtxCreate_v2000, Create, Context, Context) \
  X(cuCtxCreate_v2, "cuCtxCreate", 3020, false, PFN_cuCtxCreate_v3020, Create, Context, Context) \
  X(cuCtxCreate_v3, "cuCtxCreate", 11040, false, PFN_cuCtxCreate_v11040, Create, Context, Context) \
  X(cuCtxCreate_v4, "cuCtxCreate", 12050, false, PFN_cuCtxCreate_v12050, Create, Context, Context) \
  X(cuCtxDestroy, "cuCtxDestroy", 2000, false, PFN_cuCtxDestroy_v2000, Teardown, NoKind, Context) \
  X(cuCtxDestroy_v2, "cuCtxDestroy", 4000, false, PFN_cuCtxDestroy_v4000, Teardown, NoKind, Context) \
  X(cuCtxSetCurrent, "cuCtxSetCurrent", 4000, false, PFN_cuCtxSetCurrent_v4000, Bind, NoKind, Context) \
  X(cuCtxPushCurrent, "cuCtxPushCurrent", 2000, false, PFN_cuCtxPushCurrent_v2000, Bind, NoKind, Context) \
  X(cuCtxPushCurrent_v2, "cuCtxPushCurrent", 4000, false, PFN_cuCtxPushCurrent_v4000, Bind, NoKind, Context) \
  X(cuCtxPopCurrent, "cuCtxPopCurrent", 2000, false, PFN_cuCtxPopCurrent_v2000, Bind, NoKind, Context) \
  X(cuCtxPopCurrent_v2, "cuCtxPopCurrent", 4000, false, PFN_cuCtxPopCurrent_v4000, Bind, NoKind, Context) \
  X(cuGreenCtxCreate, "cuGreenCtxCreate", 12040, false, PFN_cuGreenCtxCreate_v12040, Create, Context, GreenContext) \
  X(cuGreenCtxDestroy, "cuGreenCtxDestroy", 12040, false, PFN_cuGreenCtxDestroy_v12040, Teardown, NoKind, GreenContext) \
  X(cuGreenCtxStreamCreate, "cuGreenCtxStreamCreate", 12050, false, PFN_cuGreenCtxStreamCreate_v12050, Create, Stream, Stream) \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", 7000, false, PFN_cuDevicePrimaryCtxRetain_v7000, Retain, NoKind, Context) \
  X(cuDevicePrimaryCtxReset, "cuDevicePrimaryCtxReset", 7000, false, PFN_cuDevicePrimaryCtxReset_v7000, Teardown, NoKind, Context) \
  X(cuStreamCreate, "cuStreamCreate", 2000, false, PFN_cuStreamCreate_v2000, Create, Stream, Stream) \
  X(cuStreamDestroy, "cuStreamDestroy", 2000, false, PFN_cuStreamDestroy_v2000, Release, NoKind, Stream) \
  X(cuStreamDestroy_v2, "cuStreamDestroy", 4000, false, PFN_cuStreamDestroy_v4000, Release, NoKind, Stream) \
  X(cuEventCreate, "cuEventCreate", 2000, false, PFN_cuEventCreate_v2000, Create, Event, Event) \
  X(cuEventDestroy, "cuEventDestroy", 2000, false, PFN_cuEventDestroy_v2000, Release, NoKind, Event) \
  X(cuEventDestroy_v2, "cuEventDestroy", 4000, false, PFN_cuEventDestroy_v4000, Release, NoKind, Event) \
  X(cuMemAllocFromPoolAsync_ptsz, "cuMemAllocFromPoolAsync", 11020, true, PFN_cuMemAllocFromPoolAsync_v11020_ptsz, Create, Async, DevicePtr) \
  X(cuMemRetainAllocationHandle, "cuMemRetainAllocationHandle", 11000, false, PFN_cuMemRetainAllocationHandle_v11000, Retain, NoKind, Vmm) \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease", 7000, false, PFN_cuDevicePrimaryCtxRelease_v7000, Teardown, NoKind, Context) \
  X(cuDevicePrimaryCtxRelease_v2, "cuDevicePrimaryCtxRelease", 11000, false, PFN_cuDevicePrimaryCtxRelease_v11000, Teardown, NoKind, Context) \
  X(cuDevicePrimaryCtxReset_v2, "cuDevicePrimaryCtxReset", 11000, false, PFN_cuDevicePrimaryCtxReset_v11000, Teardown, NoKind, Context) \
  X(cuStreamCreateWithPriority, "cuStreamCreateWithPriority", 5050, false, PFN_cuStreamCreateWithPriority_v5050, Create, Stream, Stream) \
  X(cuGraphCreate, "cuGraphCreate", 10000, false, PFN_cuGraphCreate_v10000, Create, Graph, Graph) \
  X(cuGraphClone, "cuGraphClone", 10000, false, PFN_cuGraphClone_v10000, Create, Graph, Graph) \
  X(cuStreamEndCapture, "cuStreamEndCapture", 10000, false, PFN_cuStreamEndCapture_v10000, Create, Graph, Graph) \
  X(cuStreamEndCapture_ptsz, "cuStreamEndCapture", 10000, true, PFN_cuStreamEndCapture_v10000_ptsz, Create, Graph, Graph) \
  X(cuStreamBeginCapture, "cuStreamBeginCapture", 10000, false, PFN_cuStreamBeginCapture_v10000, Observe, NoKind, NoSpace) \
  X(cuStreamBeginCapture_ptsz, "cuStreamBeginCapture", 10000, true, PFN_cuStreamBeginCapture_v10000_ptsz, Observe, NoKind, NoSpace) \
  X(cuStreamBeginCapture_v2, "cuStreamBeginCapture", 10010, false, PFN_cuStreamBeginCapture_v10010, Observe, NoKind, NoSpace) \
  X(cuStreamBeginCapture_v2_ptsz, "cuStreamBeginCapture", 10010, true, PFN_cuStreamBeginCapture_v10010_ptsz, Observe, NoKind, NoSpace) \
  X(cuStreamBeginCaptureToGraph, "cuStreamBeginCaptureToGraph", 12030, false, PFN_cuStreamBeginCaptureToGraph_v12030, Observe, NoKind, NoSpace) \
  X(cuStreamBeginCaptureToGraph_ptsz, "cuStreamBeginCaptureToGraph", 12030, true, PFN_cuStreamBeginCaptureToGraph_v12030_ptsz, Observe, NoKind, NoSpace) \
  X(cuGraphDestroy, "cuGraphDestroy", 10000, false, PFN_cuGraphDestroy_v10000, Release, NoKind, Graph) \
  X(cuGraphInstantiate, "cuGraphInstantiate", 10000, false, PFN_cuGraphInstantiate_v10000, Create, GraphExec, GraphExec) \
  X(cuGraphInstantiate_v2, "cuGraphInstantiate", 11000, false, PFN_cuGraphInstantiate_v11000, Create, GraphExec, GraphExec) \
  X(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", 11040, false, PFN_cuGraphInstantiateWithFlags_v11040, Create, GraphExec, GraphExec) \
  X(cuGraphInstantiateWithParams, "cuGraphInstantiateWithParams", 12000, false, PFN_cuGraphInstantiateWithParams_v12000, Create, GraphExec, GraphExec) \
  X(cuGraphInstantiateWithParams_ptsz, "cuGraphInstantiateWithParams", 12000, true, PFN_cuGraphInstantiateWithParams_v12000_ptsz, Create, GraphExec, GraphExec) \
  X(cuGraphExecDestroy, "cuGraphExecDestroy", 10000, false, PFN_cuGraphExecDestroy_v10000, Release, NoKind, GraphExec) \
  X(cuGraphAddMemAllocNode, "cuGraphAddMemAllocNode", 11040, false, PFN_cuGraphAddMemAllocNode_v11040, Create, GraphMemory, DevicePtr) \
  X(cuGraphAddMemFreeNode, "cuGraphAddMemFreeNode", 11040, false, PFN_cuGraphAddMemFreeNode_v11040, Release, NoKind, DevicePtr) \
  X(cuGraphAddNode, "cuGraphAddNode", 12020, false, PFN_cuGraphAddNode_v12020, Create, GraphMemory, DevicePtr) \
  X(cuGraphAddNode_v2, "cuGraphAddNode", 12030, false, PFN_cuGraphAddNode_v12030, Create, GraphMemory, DevicePtr) \
  X(cuModuleLoad, "cuModuleLoad", 2000, false, PFN_cuModuleLoad_v2000, Create, Module, Module) \
  X(cuModuleLoadData, "cuModuleLoadData", 2000, false, PFN_cuModuleLoadData_v2000, Create, Module, Module) \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", 2010, false, PFN_cuModuleLoadDataEx_v2010, Create, Module, Module) \
  X(cuModuleLoadFatBinary, "cuModuleLoadFatBinary", 2000, false, PFN_cuModuleLoadFatBinary_v2000, Create, Module, Module) \
  X(cuModuleUnload, "cuModuleUnload", 2000, false, PFN_cuModuleUnload_v2000, Release, NoKind, Module) \
  X(cuLibraryLoadData, "cuLibraryLoadData", 12000, false, PFN_cuLibraryLoadData_v12000, Create, Library, Library) \
  X(cuLibraryLoadFromFile, "cuLibraryLoadFromFile", 12000, false, PFN_cuLibraryLoadFromFile_v12000, Create, Library, Library) \
  X(cuLibraryUnload, "cuLibraryUnload", 12000, false, PFN_cuLibraryUnload_v12000, Release, NoKind, Library) \
  X(cuTexObjectCreate, "cuTexObjectCreate", 5000, false, PFN_cuTexObjectCreate_v5000, Create, Texture, Texture) \
  X(cuTexObjectDestroy, "cuTexObjectDestroy", 5000, false, PFN_cuTexObjectDestroy_v5000, Release, NoKind, Texture) \
  X(cuSurfObjectCreate, "cuSurfObjectCreate", 5000, false, PFN_cuSurfObjectCreate_v5000, Create, Surface, Surface) \
  X(cuSurfObjectDestroy, "cuSurfObjectDestroy", 5000, false, PFN_cuSurfObjectDestroy_v5000, Release, NoKind, Surface) \
  X(cuIpcOpenMemHandle, "cuIpcOpenMemHandle", 4010, false, PFN_cuIpcOpenMemHandle_v4010, Create, IpcMapping, IpcPtr) \
  X(cuIpcOpenMemHandle_v2, "cuIpcOpenMemHandle", 11000, false, PFN_cuIpcOpenMemHandle_v11000, Create, IpcMapping, IpcPtr) \
  X(cuIpcCloseMemHandle, "cuIpcCloseMemHandle", 4010, false, PFN_cuIpcCloseMemHandle_v4010, Release, NoKind, IpcPtr) \
  X(cuMemPoolImportPointer, "cuMemPoolImportPointer", 11020, false, PFN_cuMemPoolImportPointer_v11020, Create, IpcMapping, DevicePtr) \
  X(cuMemImportFromShareableHandle, "cuMemImportFromShareableHandle", 10020, false, PFN_cuMemImportFromShareableHandle_v10020, Create, IpcMapping, Vmm) \
  X(cuImportExternalMemory, "cuImportExternalMemory", 10000, false, PFN_cuImportExternalMemory_v10000, Create, ExternalMemory, ExternalMemory) \
  X(cuExternalMemoryGetMappedBuffer, "cuExternalMemoryGetMappedBuffer", 10000, false, PFN_cuExternalMemoryGetMappedBuffer_v10000, Create, Device, DevicePtr) \
  X(cuExternalMemoryGetMappedMipmappedArray, "cuExternalMemoryGetMappedMipmappedArray", 10000, false, PFN_cuExternalMemoryGetMappedMipmappedArray_v10000, Create, Array, Mipmapped) \
  X(cuDestroyExternalMemory, "cuDestroyExternalMemory", 10000, false, PFN_cuDestroyExternalMemory_v10000, Release, NoKind, ExternalMemory) \
  X(cuImportExternalSemaphore, "cuImportExternalSemaphore", 10000, false, PFN_cuImportExternalSemaphore_v10000, Create, ExternalSemaphore, ExternalSemaphore) \
  X(cuDestroyExternalSemaphore, "cuDestroyExternalSemaphore", 10000, false, PFN_cuDestroyExternalSemaphore_v10000, Release, NoKind, ExternalSemaphore) \
  X(cuCtxSetLimit, "cuCtxSetLimit", 3010, false, PFN_cuCtxSetLimit_v3010, Observe, NoKind, NoSpace) \
  X(cuMemPrefetchAsync, "cuMemPrefetchAsync", 8000, false, PFN_cuMemPrefetchAsync_v8000, Observe, NoKind, NoSpace) \
  X(cuMemPrefetchAsync_ptsz, "cuMemPrefetchAsync", 8000, true, PFN_cuMemPrefetchAsync_v8000_ptsz, Observe, NoKind, NoSpace) \
  X(cuMemPrefetchAsync_v2, "cuMemPrefetchAsync", 12020, false, PFN_cuMemPrefetchAsync_v12020, Observe, NoKind, NoSpace) \
  X(cuMemPrefetchAsync_v2_ptsz, "cuMemPrefetchAsync", 12020, true, PFN_cuMemPrefetchAsync_v12020_ptsz, Observe, NoKind, NoSpace) \
  X(cuMemPrefetchBatchAsync, "cuMemPrefetchBatchAsync", 13000, false, PFN_cuMemPrefetchBatchAsync_v13000, Observe, NoKind, NoSpace) \
  X(cuMemPrefetchBatchAsync_ptsz, "cuMemPrefetchBatchAsync", 13000, true, PFN_cuMemPrefetchBatchAsync_v13000_ptsz, Observe, NoKind, NoSpace)
// clang-format on

// Create and destroy functions of NVIDIA's libraries, interposed by their
// exported names; the real ones are looked up in the library itself. Role
// Use: a call whose first argument is a live handle, in which the library
// makes what the handle needs later (cuRAND allocates a generator's state in
// its first curandGenerate*, not at create); what it makes there is the
// handle's, as what its create made.
// X(exported symbol, library file name prefix, PFN type (library_api.h), role, handle space)
// clang-format off
#define CUDALEAK_LIBRARY_HOOKS(X) \
  X(cublasCreate_v2, "libcublas.so", PFN_create, Create, Cublas) \
  X(cublasDestroy_v2, "libcublas.so", PFN_destroy, Release, Cublas) \
  X(cublasLtCreate, "libcublasLt.so", PFN_create, Create, CublasLt) \
  X(cublasLtDestroy, "libcublasLt.so", PFN_destroy, Release, CublasLt) \
  X(cudnnCreate, "libcudnn.so", PFN_create, Create, Cudnn) \
  X(cudnnDestroy, "libcudnn.so", PFN_destroy, Release, Cudnn) \
  X(cufftCreate, "libcufft.so", PFN_cufftCreate, Create, Cufft) \
  X(cufftPlan1d, "libcufft.so", PFN_cufftPlan1d, Create, Cufft) \
  X(cufftPlan2d, "libcufft.so", PFN_cufftPlan2d, Create, Cufft) \
  X(cufftPlan3d, "libcufft.so", PFN_cufftPlan3d, Create, Cufft) \
  X(cufftPlanMany, "libcufft.so", PFN_cufftPlanMany, Create, Cufft) \
  X(cufftDestroy, "libcufft.so", PFN_cufftDestroy, Release, Cufft) \
  X(cusparseCreate, "libcusparse.so", PFN_create, Create, Cusparse) \
  X(cusparseDestroy, "libcusparse.so", PFN_destroy, Release, Cusparse) \
  X(cusolverDnCreate, "libcusolver.so", PFN_create, Create, CusolverDn) \
  X(cusolverDnDestroy, "libcusolver.so", PFN_destroy, Release, CusolverDn) \
  X(cusolverSpCreate, "libcusolver.so", PFN_create, Create, CusolverSp) \
  X(cusolverSpDestroy, "libcusolver.so", PFN_destroy, Release, CusolverSp) \
  X(curandCreateGenerator, "libcurand.so", PFN_curandCreateGenerator, Create, Curand) \
  X(curandCreateGeneratorHost, "libcurand.so", PFN_curandCreateGenerator, Create, Curand) \
  X(curandDestroyGenerator, "libcurand.so", PFN_destroy, Release, Curand) \
  X(curandGenerate, "libcurand.so", PFN_curandGenerate, Use, Curand) \
  X(curandGenerateLongLong, "libcurand.so", PFN_curandGenerateLongLong, Use, Curand) \
  X(curandGenerateUniform, "libcurand.so", PFN_curandGenerateUniform, Use, Curand) \
  X(curandGenerateUniformDouble, "libcurand.so", PFN_curandGenerateUniformDouble, Use, Curand) \
  X(curandGenerateNormal, "libcurand.so", PFN_curandGenerateNormal, Use, Curand) \
  X(curandGenerateNormalDouble, "libcurand.so", PFN_curandGenerateNormalDouble, Use, Curand) \
  X(curandGenerateLogNormal, "libcurand.so", PFN_curandGenerateNormal, Use, Curand) \
  X(curandGenerateLogNormalDouble, "libcurand.so", PFN_curandGenerateNormalDouble, Use, Curand) \
  X(curandGeneratePoisson, "libcurand.so", PFN_curandGeneratePoisson, Use, Curand) \
  X(curandGenerateSeeds, "libcurand.so", PFN_destroy, Use, Curand) \
  X(curandSetPseudoRandomGeneratorSeed, "libcurand.so", PFN_curandSetSeed, Use, Curand) \
  X(curandSetGeneratorOffset, "libcurand.so", PFN_curandSetSeed, Use, Curand) \
  X(ncclCommInitRank, "libnccl.so", PFN_ncclCommInitRank, Create, Nccl) \
  X(ncclCommInitRankConfig, "libnccl.so", PFN_ncclCommInitRankConfig, Create, Nccl) \
  X(ncclCommInitRankScalable, "libnccl.so", PFN_ncclCommInitRankScalable, Create, Nccl) \
  X(ncclCommInitAll, "libnccl.so", PFN_ncclCommInitAll, Create, Nccl) \
  X(ncclCommSplit, "libnccl.so", PFN_ncclCommSplit, Create, Nccl) \
  X(ncclCommDestroy, "libnccl.so", PFN_destroy, Release, Nccl) \
  X(ncclCommAbort, "libnccl.so", PFN_destroy, Release, Nccl)
// clang-format on

namespace cudaleak {

enum class HookRole : uint8_t { Lookup, Create, Release, Retain, Teardown, Observe, Bind, Use };
// The table's kind and space columns name enumerators unqualified; NoKind and
// NoSpace stand for a role that creates nothing or releases in no space.
namespace kind_column {
using enum Kind;
inline constexpr Kind NoKind = static_cast<Kind>(0xff);
}  // namespace kind_column
namespace space_column {
using enum Space;
inline constexpr Space NoSpace = static_cast<Space>(0xff);
}  // namespace space_column

enum class HookId : uint16_t {
#define CUDALEAK_HOOK_ENUM(sym, ...) sym,
  CUDALEAK_HOOKS(CUDALEAK_HOOK_ENUM) CUDALEAK_LIBRARY_HOOKS(CUDALEAK_HOOK_ENUM)
#undef CUDALEAK_HOOK_ENUM
      Count
};
inline constexpr int kHookCount = static_cast<int>(HookId::Count);

template <HookId>
struct HookTraits;
#define CUDALEAK_HOOK_TRAITS(sym, lookup, version, ptsz, pfn, role_, kind_, space_) \
  template <>                                                                       \
  struct HookTraits<HookId::sym> {                                                  \
    using Fn = pfn;                                                                 \
    static constexpr HookRole role = HookRole::role_;                               \
    static constexpr Kind kind = kind_column::kind_;                                \
    static constexpr Space space = space_column::space_;                            \
    static constexpr bool from_library = false;                                     \
  };
#define CUDALEAK_LIBRARY_TRAITS(sym, library, pfn, role_, space_) \
  template <>                                                     \
  struct HookTraits<HookId::sym> {                                \
    using Fn = libapi::pfn;                                       \
    static constexpr HookRole role = HookRole::role_;             \
    static constexpr Kind kind = Kind::LibraryHandle;             \
    static constexpr Space space = Space::space_;                 \
    static constexpr bool from_library = true;                    \
  };
CUDALEAK_HOOKS(CUDALEAK_HOOK_TRAITS)
CUDALEAK_LIBRARY_HOOKS(CUDALEAK_LIBRARY_TRAITS)
#undef CUDALEAK_HOOK_TRAITS
#undef CUDALEAK_LIBRARY_TRAITS

struct HookInfo {
  const char* symbol;   // exported name, e.g. "cuMemAllocAsync_ptsz"
  const char* lookup;   // cuGetProcAddress name, e.g. "cuMemAllocAsync"; nullptr for library rows
  int version;          // ABI version of this variant
  bool per_thread;      // the _ptsz/_ptds variant
  void* wrapper;        // our exported function
  const char* library;  // file name prefix of the library for library rows; nullptr for the driver
};

const HookInfo& hook_info(HookId id);
const char* hook_name(HookId id);
// What created a record (Record::api): a hook's name, or "malloc" for
// HookId::Count, a kernel's own malloc (device_heap).
const char* creator_name(uint16_t api);

// Hook for an exported name passed to dlsym, or -1.
int hook_by_symbol(const char* symbol);

// Hook that stands in for what cuGetProcAddress returns for (name, version,
// per-thread flag): the newest variant whose version is <= `version`. -1 when
// the name is not hooked or the version predates every hooked variant.
int hook_for_lookup(const char* name, int version, bool per_thread);

// The real function behind a hook: recorded from dlsym/cuGetProcAddress, or
// resolved on first use for programs that call the exported symbol directly
// (in the driver, or for library rows in the library, wherever it was loaded).
// Inline: every hook call reads it, and its fast path is one load.
namespace detail {
extern std::atomic<void*> g_real[kHookCount];
void* resolve_real_function(HookId id);
}  // namespace detail
inline void* real_function(HookId id) {
  if (void* fn = detail::g_real[static_cast<int>(id)].load(std::memory_order_acquire)) [[likely]]
    return fn;
  return detail::resolve_real_function(id);
}
void remember_real(int id, void* fn);

}  // namespace cudaleak
