// How the simulated runtime reaches the driver: the same way cudart 13 does.
// dlopen("libcuda.so.1"), dlsym("cuGetProcAddress_v2"), a "" probe, cuInit,
// then every later look-up through the pointer returned for "cuGetProcAddress".
#pragma once
#define __CUDA_API_VERSION_INTERNAL 1  // the v1 (7000) primary-context typedefs cudart uses
#include <cuda.h>
#include <cudaTypedefs.h>

namespace simrt {

struct DriverTable {
  PFN_cuInit_v2000 cuInit;
  PFN_cuGetProcAddress_v12000 cuGetProcAddress;
  PFN_cuDeviceGetCount_v2000 cuDeviceGetCount;
  PFN_cuDeviceGetName_v2000 cuDeviceGetName;
  PFN_cuDeviceTotalMem_v3020 cuDeviceTotalMem;
  PFN_cuDeviceGetAttribute_v2000 cuDeviceGetAttribute;
  PFN_cuDevicePrimaryCtxRetain_v7000 cuDevicePrimaryCtxRetain;
  PFN_cuDevicePrimaryCtxReset_v7000 cuDevicePrimaryCtxReset;
  PFN_cuCtxSetCurrent_v4000 cuCtxSetCurrent;
  PFN_cuCtxSynchronize_v2000 cuCtxSynchronize;
  PFN_cuCtxSetLimit_v3010 cuCtxSetLimit;
  PFN_cuCtxGetLimit_v3010 cuCtxGetLimit;
  PFN_cuMemGetInfo_v3020 cuMemGetInfo;
  PFN_cuMemAlloc_v3020 cuMemAlloc;
  PFN_cuMemAllocPitch_v3020 cuMemAllocPitch;
  PFN_cuMemFree_v3020 cuMemFree;
  PFN_cuMemHostAlloc_v2020 cuMemHostAlloc;
  PFN_cuMemFreeHost_v2000 cuMemFreeHost;
  PFN_cuMemHostRegister_v6050 cuMemHostRegister;
  PFN_cuMemHostUnregister_v4000 cuMemHostUnregister;
  PFN_cuMemAllocManaged_v6000 cuMemAllocManaged;
  PFN_cuMemPrefetchAsync_v12020 cuMemPrefetchAsync;
  PFN_cuMemPrefetchAsync_v12020 cuMemPrefetchAsync_ptsz;
  PFN_cuMemPrefetchBatchAsync_v13000 cuMemPrefetchBatchAsync;
  PFN_cuDeviceCanAccessPeer_v4000 cuDeviceCanAccessPeer;
  PFN_cuCtxEnablePeerAccess_v4000 cuCtxEnablePeerAccess;
  PFN_cuCtxDisablePeerAccess_v4000 cuCtxDisablePeerAccess;
  PFN_cuMemAllocAsync_v11020 cuMemAllocAsync;
  PFN_cuMemAllocAsync_v11020 cuMemAllocAsync_ptsz;
  PFN_cuMemAllocFromPoolAsync_v11020 cuMemAllocFromPoolAsync;
  PFN_cuMemAllocFromPoolAsync_v11020 cuMemAllocFromPoolAsync_ptsz;
  PFN_cuMemFreeAsync_v11020 cuMemFreeAsync;
  PFN_cuMemFreeAsync_v11020 cuMemFreeAsync_ptsz;
  PFN_cuMemPoolCreate_v11020 cuMemPoolCreate;
  PFN_cuMemPoolDestroy_v11020 cuMemPoolDestroy;
  PFN_cuMemPoolGetAttribute_v11020 cuMemPoolGetAttribute;
  PFN_cuMemPoolSetAttribute_v11020 cuMemPoolSetAttribute;
  PFN_cuDeviceGetDefaultMemPool_v11020 cuDeviceGetDefaultMemPool;
  PFN_cuArray3DCreate_v3020 cuArray3DCreate;
  PFN_cuArrayDestroy_v2000 cuArrayDestroy;
  PFN_cuStreamCreate_v2000 cuStreamCreate;
  PFN_cuStreamCreateWithPriority_v5050 cuStreamCreateWithPriority;
  PFN_cuStreamDestroy_v4000 cuStreamDestroy;
  PFN_cuStreamSynchronize_v2000 cuStreamSynchronize;
  PFN_cuLaunchHostFunc_v10000 cuLaunchHostFunc;
  PFN_cuStreamAddCallback_v5000 cuStreamAddCallback;
  PFN_cuEventCreate_v2000 cuEventCreate;
  PFN_cuEventDestroy_v4000 cuEventDestroy;
  PFN_cuEventRecord_v2000 cuEventRecord;
  PFN_cuEventSynchronize_v2000 cuEventSynchronize;
  PFN_cuMipmappedArrayCreate_v5000 cuMipmappedArrayCreate;
  PFN_cuMipmappedArrayDestroy_v5000 cuMipmappedArrayDestroy;
  PFN_cuTexObjectCreate_v5000 cuTexObjectCreate;
  PFN_cuTexObjectDestroy_v5000 cuTexObjectDestroy;
  PFN_cuSurfObjectCreate_v5000 cuSurfObjectCreate;
  PFN_cuSurfObjectDestroy_v5000 cuSurfObjectDestroy;
  PFN_cuIpcGetMemHandle_v4010 cuIpcGetMemHandle;
  PFN_cuIpcOpenMemHandle_v11000 cuIpcOpenMemHandle;
  PFN_cuIpcCloseMemHandle_v4010 cuIpcCloseMemHandle;
  PFN_cuGraphCreate_v10000 cuGraphCreate;
  PFN_cuGraphClone_v10000 cuGraphClone;
  PFN_cuGraphDestroy_v10000 cuGraphDestroy;
  PFN_cuGraphAddMemAllocNode_v11040 cuGraphAddMemAllocNode;
  PFN_cuGraphAddMemFreeNode_v11040 cuGraphAddMemFreeNode;
  PFN_cuGraphInstantiateWithFlags_v11040 cuGraphInstantiateWithFlags;
  PFN_cuGraphLaunch_v10000 cuGraphLaunch;
  PFN_cuGraphExecDestroy_v10000 cuGraphExecDestroy;
  PFN_cuStreamBeginCapture_v10010 cuStreamBeginCapture;
  PFN_cuStreamEndCapture_v10000 cuStreamEndCapture;
};

// The driver table, loaded once; nullptr when no driver could be loaded.
const DriverTable* driver();
// A symbol of the simulated driver's own (include/simcuda_device.h), not a
// CUDA entry point; nullptr when the driver is not the simulated one.
void* driver_symbol(const char* name);

// Makes the primary context of the current device current on this thread,
// retaining it on first use, as cudart's lazy initialisation does.
CUresult ensure_context();
// The primary context of `device`, retained at its first use.
CUresult primary_context(int device, CUcontext* ctx);
int current_device();
void set_current_device(int device);
void forget_context(int device);

}  // namespace simrt
