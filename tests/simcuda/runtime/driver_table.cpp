#include "tests/simcuda/runtime/driver_table.h"

#include <pthread.h>

#include <dlfcn.h>

#include <mutex>
#include <vector>

namespace simrt {

namespace {

thread_local int t_device = 0;
std::mutex g_context_mutex;

DriverTable g_table;
bool g_loaded = false;
void* g_lib = nullptr;

template <typename Fn>
bool resolve(const char* name, Fn& slot, int version, cuuint64_t flags = CU_GET_PROC_ADDRESS_DEFAULT) {
  void* fn = nullptr;
  CUdriverProcAddressQueryResult status;
  if (g_table.cuGetProcAddress(name, &fn, version, flags, &status) != CUDA_SUCCESS || !fn) return false;
  slot = reinterpret_cast<Fn>(fn);
  return true;
}

void load() {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (!lib) return;
  g_lib = lib;
  auto bootstrap = reinterpret_cast<PFN_cuGetProcAddress_v12000>(dlsym(lib, "cuGetProcAddress_v2"));
  if (!bootstrap) return;
  void* probe = nullptr;
  if (bootstrap("", &probe, 0, 0, nullptr) == CUDA_ERROR_STUB_LIBRARY) return;
  g_table.cuGetProcAddress = bootstrap;
  if (!resolve("cuInit", g_table.cuInit, 2000) || g_table.cuInit(0) != CUDA_SUCCESS) return;
  // From here on, everything goes through the pointer the driver returns for
  // "cuGetProcAddress": an interposer that does not substitute itself here sees nothing more.
  if (!resolve("cuGetProcAddress", g_table.cuGetProcAddress, 12000)) return;
  const int v = CUDA_VERSION;
  const auto ptsz = CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
  bool ok = resolve("cuDeviceGetCount", g_table.cuDeviceGetCount, v) &&
            resolve("cuDeviceGetName", g_table.cuDeviceGetName, v) &&
            resolve("cuDeviceTotalMem", g_table.cuDeviceTotalMem, v) &&
            resolve("cuDeviceGetAttribute", g_table.cuDeviceGetAttribute, v) &&
            resolve("cuDevicePrimaryCtxRetain", g_table.cuDevicePrimaryCtxRetain, 7000) &&
            resolve("cuDevicePrimaryCtxReset", g_table.cuDevicePrimaryCtxReset, 7000) &&
            resolve("cuCtxSetCurrent", g_table.cuCtxSetCurrent, v) &&
            resolve("cuCtxSynchronize", g_table.cuCtxSynchronize, v) &&
            resolve("cuCtxSetLimit", g_table.cuCtxSetLimit, v) && resolve("cuCtxGetLimit", g_table.cuCtxGetLimit, v) &&
            resolve("cuMemGetInfo", g_table.cuMemGetInfo, v) && resolve("cuMemAlloc", g_table.cuMemAlloc, v) &&
            resolve("cuMemAllocPitch", g_table.cuMemAllocPitch, v) && resolve("cuMemFree", g_table.cuMemFree, v) &&
            resolve("cuMemHostAlloc", g_table.cuMemHostAlloc, v) &&
            resolve("cuMemFreeHost", g_table.cuMemFreeHost, v) &&
            resolve("cuMemHostRegister", g_table.cuMemHostRegister, v) &&
            resolve("cuMemHostUnregister", g_table.cuMemHostUnregister, v) &&
            resolve("cuMemAllocManaged", g_table.cuMemAllocManaged, v) &&
            resolve("cuMemPrefetchAsync", g_table.cuMemPrefetchAsync, v) &&
            resolve("cuMemPrefetchAsync", g_table.cuMemPrefetchAsync_ptsz, v, ptsz) &&
            resolve("cuMemPrefetchBatchAsync", g_table.cuMemPrefetchBatchAsync, v) &&
            resolve("cuDeviceCanAccessPeer", g_table.cuDeviceCanAccessPeer, v) &&
            resolve("cuCtxEnablePeerAccess", g_table.cuCtxEnablePeerAccess, v) &&
            resolve("cuCtxDisablePeerAccess", g_table.cuCtxDisablePeerAccess, v) &&
            resolve("cuMemAllocAsync", g_table.cuMemAllocAsync, v) &&
            resolve("cuMemAllocAsync", g_table.cuMemAllocAsync_ptsz, v, ptsz) &&
            resolve("cuMemAllocFromPoolAsync", g_table.cuMemAllocFromPoolAsync, v) &&
            resolve("cuMemAllocFromPoolAsync", g_table.cuMemAllocFromPoolAsync_ptsz, v, ptsz) &&
            resolve("cuMemFreeAsync", g_table.cuMemFreeAsync, v) &&
            resolve("cuMemFreeAsync", g_table.cuMemFreeAsync_ptsz, v, ptsz) &&
            resolve("cuMemPoolCreate", g_table.cuMemPoolCreate, v) &&
            resolve("cuMemPoolDestroy", g_table.cuMemPoolDestroy, v) &&
            resolve("cuMemPoolGetAttribute", g_table.cuMemPoolGetAttribute, v) &&
            resolve("cuMemPoolSetAttribute", g_table.cuMemPoolSetAttribute, v) &&
            resolve("cuDeviceGetDefaultMemPool", g_table.cuDeviceGetDefaultMemPool, v) &&
            resolve("cuArray3DCreate", g_table.cuArray3DCreate, v) &&
            resolve("cuArrayDestroy", g_table.cuArrayDestroy, v) &&
            resolve("cuStreamCreate", g_table.cuStreamCreate, v) &&
            resolve("cuStreamCreateWithPriority", g_table.cuStreamCreateWithPriority, v) &&
            resolve("cuStreamDestroy", g_table.cuStreamDestroy, v) &&
            resolve("cuStreamSynchronize", g_table.cuStreamSynchronize, v) &&
            resolve("cuLaunchHostFunc", g_table.cuLaunchHostFunc, v) &&
            resolve("cuStreamAddCallback", g_table.cuStreamAddCallback, v) &&
            resolve("cuEventCreate", g_table.cuEventCreate, v) &&
            resolve("cuEventDestroy", g_table.cuEventDestroy, v) &&
            resolve("cuEventRecord", g_table.cuEventRecord, v) &&
            resolve("cuEventSynchronize", g_table.cuEventSynchronize, v) &&
            resolve("cuMipmappedArrayCreate", g_table.cuMipmappedArrayCreate, v) &&
            resolve("cuMipmappedArrayDestroy", g_table.cuMipmappedArrayDestroy, v) &&
            resolve("cuTexObjectCreate", g_table.cuTexObjectCreate, v) &&
            resolve("cuTexObjectDestroy", g_table.cuTexObjectDestroy, v) &&
            resolve("cuSurfObjectCreate", g_table.cuSurfObjectCreate, v) &&
            resolve("cuSurfObjectDestroy", g_table.cuSurfObjectDestroy, v) &&
            resolve("cuIpcGetMemHandle", g_table.cuIpcGetMemHandle, v) &&
            resolve("cuIpcOpenMemHandle", g_table.cuIpcOpenMemHandle, v) &&
            resolve("cuIpcCloseMemHandle", g_table.cuIpcCloseMemHandle, v) &&
            resolve("cuGraphCreate", g_table.cuGraphCreate, v) && resolve("cuGraphClone", g_table.cuGraphClone, v) &&
            resolve("cuGraphDestroy", g_table.cuGraphDestroy, v) &&
            resolve("cuGraphAddMemAllocNode", g_table.cuGraphAddMemAllocNode, v) &&
            resolve("cuGraphAddMemFreeNode", g_table.cuGraphAddMemFreeNode, v) &&
            resolve("cuGraphInstantiateWithFlags", g_table.cuGraphInstantiateWithFlags, v) &&
            resolve("cuGraphLaunch", g_table.cuGraphLaunch, v) &&
            resolve("cuGraphExecDestroy", g_table.cuGraphExecDestroy, v) &&
            resolve("cuStreamBeginCapture", g_table.cuStreamBeginCapture, v) &&
            resolve("cuStreamEndCapture", g_table.cuStreamEndCapture, v);
  g_loaded = ok;
  // Registered after the driver's own (cuInit above), so that before fork()
  // this lock is taken first: ensure_context() holds it while calling the driver.
  pthread_atfork([] { g_context_mutex.lock(); }, [] { g_context_mutex.unlock(); }, [] { g_context_mutex.unlock(); });
}
std::vector<CUcontext> g_primary;  // retained primary context per device, nullptr until first use

}  // namespace

const DriverTable* driver() {
  static std::once_flag once;
  std::call_once(once, load);
  return g_loaded ? &g_table : nullptr;
}

void* driver_symbol(const char* name) { return driver() && g_lib ? dlsym(g_lib, name) : nullptr; }

int current_device() { return t_device; }
void set_current_device(int device) { t_device = device; }

CUresult primary_context(int device, CUcontext* ctx) {
  const DriverTable* d = driver();
  if (!d) return CUDA_ERROR_NO_DEVICE;
  std::lock_guard lock(g_context_mutex);
  if (g_primary.size() <= size_t(device)) g_primary.resize(size_t(device) + 1, nullptr);
  *ctx = g_primary[size_t(device)];
  if (!*ctx) {
    CUresult r = d->cuDevicePrimaryCtxRetain(ctx, device);
    if (r != CUDA_SUCCESS) return r;
    g_primary[size_t(device)] = *ctx;
  }
  return CUDA_SUCCESS;
}

CUresult ensure_context() {
  CUcontext ctx = nullptr;
  if (CUresult r = primary_context(t_device, &ctx); r != CUDA_SUCCESS) return r;
  return driver()->cuCtxSetCurrent(ctx);
}

void forget_context(int device) {
  std::lock_guard lock(g_context_mutex);
  if (size_t(device) < g_primary.size()) g_primary[size_t(device)] = nullptr;
}

}  // namespace simrt
