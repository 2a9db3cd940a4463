// cuGetProcAddress of the simulated driver, with the real one's rules: the
// entry chosen is the newest ABI whose version is <= the requested one, and the
// per-thread-default-stream flag selects the _ptsz variant where one exists.
// An entry point the simulation does not model, but which cudaTypedefs.h
// names, gets a stub that says so once and returns CUDA_ERROR_NOT_SUPPORTED:
// cudart (and a program asking cudaGetDriverEntryPoint) may look up any of
// them, and a stub is safer than a NULL it might call.
#include <cstring>
#include <iterator>

#include "tests/simcuda/driver/sim_cuda.h"
#include "tests/simcuda/driver/sim_state.h"
#include "tests/simcuda/include/not_simulated.h"

// Every entry point the simulated runtime (or a test) may look up.
// X(name looked up, ABI version, per-thread variant, function)
#define SIM_PROC_TABLE(X)                                                                   \
  X("cuInit", 2000, false, cuInit)                                                          \
  X("cuDriverGetVersion", 2020, false, cuDriverGetVersion)                                  \
  X("cuGetProcAddress", 11030, false, cuGetProcAddress)                                     \
  X("cuGetProcAddress", 12000, false, cuGetProcAddress_v2)                                  \
  X("cuGetExportTable", 3000, false, cuGetExportTable)                                      \
  X("cuGetErrorString", 6000, false, cuGetErrorString)                                      \
  X("cuGetErrorName", 6000, false, cuGetErrorName)                                          \
  X("cuDeviceGet", 2000, false, cuDeviceGet)                                                \
  X("cuDeviceGetCount", 2000, false, cuDeviceGetCount)                                      \
  X("cuDeviceGetName", 2000, false, cuDeviceGetName)                                        \
  X("cuDeviceTotalMem", 3020, false, cuDeviceTotalMem_v2)                                   \
  X("cuDeviceGetAttribute", 2000, false, cuDeviceGetAttribute)                              \
  X("cuDeviceGetUuid", 11040, false, cuDeviceGetUuid_v2)                                    \
  X("cuCtxCreate", 2000, false, cuCtxCreate)                                                \
  X("cuCtxCreate", 3020, false, cuCtxCreate_v2)                                             \
  X("cuCtxCreate", 11040, false, cuCtxCreate_v3)                                            \
  X("cuCtxCreate", 12050, false, cuCtxCreate_v4)                                            \
  X("cuCtxDestroy", 2000, false, cuCtxDestroy)                                              \
  X("cuCtxDestroy", 4000, false, cuCtxDestroy_v2)                                           \
  X("cuCtxGetCurrent", 4000, false, cuCtxGetCurrent)                                        \
  X("cuCtxSetCurrent", 4000, false, cuCtxSetCurrent)                                        \
  X("cuCtxPushCurrent", 4000, false, cuCtxPushCurrent_v2)                                   \
  X("cuCtxPopCurrent", 4000, false, cuCtxPopCurrent_v2)                                     \
  X("cuCtxGetDevice", 2000, false, cuCtxGetDevice)                                          \
  X("cuCtxSynchronize", 2000, false, cuCtxSynchronize)                                      \
  X("cuCtxSetLimit", 3010, false, cuCtxSetLimit)                                            \
  X("cuDeviceCanAccessPeer", 4000, false, cuDeviceCanAccessPeer)                            \
  X("cuCtxEnablePeerAccess", 4000, false, cuCtxEnablePeerAccess)                            \
  X("cuCtxDisablePeerAccess", 4000, false, cuCtxDisablePeerAccess)                          \
  X("cuMemPrefetchAsync", 8000, false, cuMemPrefetchAsync)                                  \
  X("cuMemPrefetchAsync", 8000, true, cuMemPrefetchAsync_ptsz)                              \
  X("cuMemPrefetchAsync", 12020, false, cuMemPrefetchAsync_v2)                              \
  X("cuMemPrefetchAsync", 12020, true, cuMemPrefetchAsync_v2_ptsz)                          \
  X("cuMemPrefetchBatchAsync", 13000, false, cuMemPrefetchBatchAsync)                       \
  X("cuMemPrefetchBatchAsync", 13000, true, cuMemPrefetchBatchAsync_ptsz)                   \
  X("cuCtxGetLimit", 3010, false, cuCtxGetLimit)                                            \
  X("cuDevicePrimaryCtxRetain", 7000, false, cuDevicePrimaryCtxRetain)                      \
  X("cuDevicePrimaryCtxGetState", 7000, false, cuDevicePrimaryCtxGetState)                  \
  X("cuDevicePrimaryCtxRelease", 7000, false, cuDevicePrimaryCtxRelease)                    \
  X("cuDevicePrimaryCtxRelease", 11000, false, cuDevicePrimaryCtxRelease_v2)                \
  X("cuDevicePrimaryCtxReset", 7000, false, cuDevicePrimaryCtxReset)                        \
  X("cuDevicePrimaryCtxReset", 11000, false, cuDevicePrimaryCtxReset_v2)                    \
  X("cuGreenCtxCreate", 12040, false, cuGreenCtxCreate)                                     \
  X("cuGreenCtxDestroy", 12040, false, cuGreenCtxDestroy)                                   \
  X("cuGreenCtxStreamCreate", 12050, false, cuGreenCtxStreamCreate)                         \
  X("cuMemGetInfo", 3020, false, cuMemGetInfo_v2)                                           \
  X("cuMemAlloc", 3020, false, cuMemAlloc_v2)                                               \
  X("cuMemAllocPitch", 3020, false, cuMemAllocPitch_v2)                                     \
  X("cuMemFree", 3020, false, cuMemFree_v2)                                                 \
  X("cuMemAllocHost", 3020, false, cuMemAllocHost_v2)                                       \
  X("cuMemHostAlloc", 2020, false, cuMemHostAlloc)                                          \
  X("cuMemFreeHost", 2000, false, cuMemFreeHost)                                            \
  X("cuMemHostRegister", 4000, false, cuMemHostRegister)                                    \
  X("cuMemHostRegister", 6050, false, cuMemHostRegister_v2)                                 \
  X("cuMemHostUnregister", 4000, false, cuMemHostUnregister)                                \
  X("cuMemAllocManaged", 6000, false, cuMemAllocManaged)                                    \
  X("cuMemAllocAsync", 11020, false, cuMemAllocAsync)                                       \
  X("cuMemAllocAsync", 11020, true, cuMemAllocAsync_ptsz)                                   \
  X("cuMemAllocFromPoolAsync", 11020, false, cuMemAllocFromPoolAsync)                       \
  X("cuMemAllocFromPoolAsync", 11020, true, cuMemAllocFromPoolAsync_ptsz)                   \
  X("cuMemFreeAsync", 11020, false, cuMemFreeAsync)                                         \
  X("cuMemFreeAsync", 11020, true, cuMemFreeAsync_ptsz)                                     \
  X("cuMemPoolCreate", 11020, false, cuMemPoolCreate)                                       \
  X("cuMemPoolDestroy", 11020, false, cuMemPoolDestroy)                                     \
  X("cuMemPoolGetAttribute", 11020, false, cuMemPoolGetAttribute)                           \
  X("cuMemPoolSetAttribute", 11020, false, cuMemPoolSetAttribute)                           \
  X("cuMemPoolTrimTo", 11020, false, cuMemPoolTrimTo)                                       \
  X("cuDeviceGetDefaultMemPool", 11020, false, cuDeviceGetDefaultMemPool)                   \
  X("cuMemCreate", 10020, false, cuMemCreate)                                               \
  X("cuMemRelease", 10020, false, cuMemRelease)                                             \
  X("cuMemRetainAllocationHandle", 11000, false, cuMemRetainAllocationHandle)               \
  X("cuMemAddressReserve", 10020, false, cuMemAddressReserve)                               \
  X("cuMemAddressFree", 10020, false, cuMemAddressFree)                                     \
  X("cuMemMap", 10020, false, cuMemMap)                                                     \
  X("cuMemUnmap", 10020, false, cuMemUnmap)                                                 \
  X("cuMemSetAccess", 10020, false, cuMemSetAccess)                                         \
  X("cuArrayCreate", 3020, false, cuArrayCreate_v2)                                         \
  X("cuArray3DCreate", 3020, false, cuArray3DCreate_v2)                                     \
  X("cuArrayDestroy", 2000, false, cuArrayDestroy)                                          \
  X("cuMipmappedArrayCreate", 5000, false, cuMipmappedArrayCreate)                          \
  X("cuMipmappedArrayDestroy", 5000, false, cuMipmappedArrayDestroy)                        \
  X("cuStreamCreate", 2000, false, cuStreamCreate)                                          \
  X("cuStreamCreateWithPriority", 5050, false, cuStreamCreateWithPriority)                  \
  X("cuStreamDestroy", 2000, false, cuStreamDestroy)                                        \
  X("cuStreamDestroy", 4000, false, cuStreamDestroy_v2)                                     \
  X("cuStreamSynchronize", 2000, false, cuStreamSynchronize)                                \
  X("cuLaunchHostFunc", 10000, false, cuLaunchHostFunc)                                     \
  X("cuStreamAddCallback", 5000, false, cuStreamAddCallback)                                \
  X("cuEventCreate", 2000, false, cuEventCreate)                                            \
  X("cuEventDestroy", 2000, false, cuEventDestroy)                                          \
  X("cuEventDestroy", 4000, false, cuEventDestroy_v2)                                       \
  X("cuEventRecord", 2000, false, cuEventRecord)                                            \
  X("cuEventSynchronize", 2000, false, cuEventSynchronize)                                  \
  X("cuGraphCreate", 10000, false, cuGraphCreate)                                           \
  X("cuGraphClone", 10000, false, cuGraphClone)                                             \
  X("cuGraphDestroy", 10000, false, cuGraphDestroy)                                         \
  X("cuGraphAddMemAllocNode", 11040, false, cuGraphAddMemAllocNode)                         \
  X("cuGraphAddMemFreeNode", 11040, false, cuGraphAddMemFreeNode)                           \
  X("cuGraphInstantiateWithFlags", 11040, false, cuGraphInstantiateWithFlags)               \
  X("cuGraphInstantiateWithParams", 12000, false, cuGraphInstantiateWithParams)             \
  X("cuGraphLaunch", 10000, false, cuGraphLaunch)                                           \
  X("cuGraphExecDestroy", 10000, false, cuGraphExecDestroy)                                 \
  X("cuStreamBeginCapture", 10010, false, cuStreamBeginCapture_v2)                          \
  X("cuStreamEndCapture", 10000, false, cuStreamEndCapture)                                 \
  X("cuStreamGetCaptureInfo", 11030, false, cuStreamGetCaptureInfo_v2)                      \
  X("cuModuleLoad", 2000, false, cuModuleLoad)                                              \
  X("cuModuleLoadData", 2000, false, cuModuleLoadData)                                      \
  X("cuModuleLoadDataEx", 2010, false, cuModuleLoadDataEx)                                  \
  X("cuModuleLoadFatBinary", 2000, false, cuModuleLoadFatBinary)                            \
  X("cuModuleUnload", 2000, false, cuModuleUnload)                                          \
  X("cuModuleGetGlobal", 3020, false, cuModuleGetGlobal_v2)                                 \
  X("cuLibraryLoadData", 12000, false, cuLibraryLoadData)                                   \
  X("cuLibraryLoadFromFile", 12000, false, cuLibraryLoadFromFile)                           \
  X("cuLibraryUnload", 12000, false, cuLibraryUnload)                                       \
  X("cuTexObjectCreate", 5000, false, cuTexObjectCreate)                                    \
  X("cuTexObjectDestroy", 5000, false, cuTexObjectDestroy)                                  \
  X("cuSurfObjectCreate", 5000, false, cuSurfObjectCreate)                                  \
  X("cuSurfObjectDestroy", 5000, false, cuSurfObjectDestroy)                                \
  X("cuMemGetAddressRange", 3020, false, cuMemGetAddressRange_v2)                           \
  X("cuIpcGetMemHandle", 4010, false, cuIpcGetMemHandle)                                    \
  X("cuIpcOpenMemHandle", 11000, false, cuIpcOpenMemHandle_v2)                              \
  X("cuIpcCloseMemHandle", 4010, false, cuIpcCloseMemHandle)                                \
  X("cuMemPoolExportPointer", 11020, false, cuMemPoolExportPointer)                         \
  X("cuMemPoolImportPointer", 11020, false, cuMemPoolImportPointer)                         \
  X("cuMemPoolExportToShareableHandle", 11020, false, cuMemPoolExportToShareableHandle)     \
  X("cuMemPoolImportFromShareableHandle", 11020, false, cuMemPoolImportFromShareableHandle) \
  X("cuMemExportToShareableHandle", 10020, false, cuMemExportToShareableHandle)             \
  X("cuMemImportFromShareableHandle", 10020, false, cuMemImportFromShareableHandle)         \
  X("cuImportExternalMemory", 10000, false, cuImportExternalMemory)                         \
  X("cuExternalMemoryGetMappedBuffer", 10000, false, cuExternalMemoryGetMappedBuffer)       \
  X("cuDestroyExternalMemory", 10000, false, cuDestroyExternalMemory)                       \
  X("cuImportExternalSemaphore", 10000, false, cuImportExternalSemaphore)                   \
  X("cuDestroyExternalSemaphore", 10000, false, cuDestroyExternalSemaphore)

#define SIM_DECLARE(name, version, ptsz, fn) extern "C" decltype(fn) fn;
SIM_PROC_TABLE(SIM_DECLARE)

namespace {
struct ProcEntry {
  const char* name;
  int version;
  bool per_thread;
  void* fn;
};
#define SIM_ENTRY_ROW(name, version, ptsz, fn) ProcEntry{name, version, ptsz, reinterpret_cast<void*>(&fn)},
const ProcEntry kProcs[] = {SIM_PROC_TABLE(SIM_ENTRY_ROW)};

// The stubs, one per row of the generated list. A stub ignores its arguments
// and returns an int, which is ABI-safe for every signature (all return CUresult).
CUresult not_simulated(const char* name) {
  simcuda::say_not_simulated(name, "CUDA_ERROR_NOT_SUPPORTED");
  return CUDA_ERROR_NOT_SUPPORTED;
}
#define DRIVER_ENTRY(name, version, ptsz) \
  CUresult stub_##name##_##version##_##ptsz() { return not_simulated(#name); }
#include "tests/simcuda/driver/driver_entries.def"
#undef DRIVER_ENTRY
#define DRIVER_ENTRY(name, version, ptsz) \
  ProcEntry{#name, version, ptsz, reinterpret_cast<void*>(&stub_##name##_##version##_##ptsz)},
const ProcEntry kStubs[] = {
#include "tests/simcuda/driver/driver_entries.def"
};
#undef DRIVER_ENTRY

// The entry of `table` for `symbol` that the real driver's rules pick; `known`
// tells whether the table has the name at all.
const ProcEntry* pick(const ProcEntry* begin, const ProcEntry* end, const char* symbol, int version, bool per_thread,
                      bool& known) {
  const ProcEntry* best = nullptr;
  known = false;
  for (const ProcEntry* e = begin; e != end; ++e) {
    if (std::strcmp(e->name, symbol) != 0) continue;
    known = true;
    if (e->version > version) continue;
    if (e->per_thread && !per_thread) continue;
    if (!best || e->version > best->version || (e->per_thread && !best->per_thread)) best = e;
  }
  return best;
}

CUresult lookup(const char* symbol, void** pfn, int version, cuuint64_t flags, CUdriverProcAddressQueryResult* status) {
  if (!pfn || !symbol) return CUDA_ERROR_INVALID_VALUE;
  *pfn = nullptr;
  bool per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
  bool modelled = false, listed = false;
  const ProcEntry* best = pick(std::begin(kProcs), std::end(kProcs), symbol, version, per_thread, modelled);
  // A modelled entry answers every request from its version on (a newer ABI
  // gets the newest modelled one, as before); a stub answers a name never
  // modelled, or an ABI older than every modelled one (cuMemAlloc at 2000).
  if (!best) best = pick(std::begin(kStubs), std::end(kStubs), symbol, version, per_thread, listed);
  const bool name_known = modelled || listed;
  if (!best) {
    if (status)
      *status = name_known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    return CUDA_ERROR_NOT_FOUND;
  }
  if (status) *status = CU_GET_PROC_ADDRESS_SUCCESS;
  *pfn = best->fn;
  return CUDA_SUCCESS;
}
}  // namespace

SIM_EXPORT CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int version, cuuint64_t flags,
                                        CUdriverProcAddressQueryResult* status) {
  return lookup(symbol, pfn, version, flags, status);
}

SIM_EXPORT CUresult cuGetProcAddress(const char* symbol, void** pfn, int version, cuuint64_t flags) {
  return lookup(symbol, pfn, version, flags, nullptr);
}
