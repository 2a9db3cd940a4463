// Contexts of the simulated driver: created, primary (refcounted per device),
// green, and the per-thread current context. Destroying a context releases what
// the real driver releases with it (memory, arrays, streams, events).
#include "sim_cuda.h"
#include "sim_state.h"

#include <cerrno>
#include <cstdlib>

using namespace simcuda;

namespace {

void release_context_resources(State& sim, CUcontext ctx) {
  std::lock_guard lock(sim.mutex);
  for (auto it = sim.memory.begin(); it != sim.memory.end();) {
    if (it->second.context == ctx) {
      if (it->second.counted) sim.devices[size_t(it->second.device)].used -= it->second.bytes;
      std::free(reinterpret_cast<void*>(it->first));
      it = sim.memory.erase(it);
    } else {
      ++it;
    }
  }
}

CUresult create_context(CUcontext* pctx, CUdevice dev) {
  SIM_ENTRY("cuCtxCreate");
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  if (dev < 0 || dev >= sim.config.devices) return CUDA_ERROR_INVALID_DEVICE;
  *pctx = reinterpret_cast<CUcontext>(new_handle(Object::Context, dev, nullptr));
  push_context(*pctx);
  return CUDA_SUCCESS;
}

CUresult destroy_context(CUcontext ctx) {
  SIM_ENTRY("cuCtxDestroy");
  if (!valid(ctx, Object::Context)) return CUDA_ERROR_INVALID_CONTEXT;
  release_context_resources(sim, ctx);
  reinterpret_cast<Handle*>(ctx)->alive = false;  // kept: a stale handle must stay recognisable
  if (current_context() == ctx) pop_context();
  return CUDA_SUCCESS;
}

CUresult primary_release(CUdevice dev) {
  SIM_ENTRY("cuDevicePrimaryCtxRelease");
  if (dev < 0 || dev >= sim.config.devices) return CUDA_ERROR_INVALID_DEVICE;
  auto& device = sim.devices[size_t(dev)];
  if (device.primary_refcount <= 0) return CUDA_ERROR_INVALID_CONTEXT;
  if (--device.primary_refcount == 0) {
    auto ctx = reinterpret_cast<CUcontext>(device.primary);
    release_context_resources(sim, ctx);
    if (current_context() == ctx) set_current_context(nullptr);
  }
  return CUDA_SUCCESS;
}

CUresult primary_reset(CUdevice dev) {
  SIM_ENTRY("cuDevicePrimaryCtxReset");
  if (dev < 0 || dev >= sim.config.devices) return CUDA_ERROR_INVALID_DEVICE;
  auto& device = sim.devices[size_t(dev)];
  if (device.primary) release_context_resources(sim, reinterpret_cast<CUcontext>(device.primary));
  device.primary_refcount = 0;
  return CUDA_SUCCESS;
}

}  // namespace

SIM_EXPORT CUresult cuCtxCreate(CUcontext* pctx, unsigned int, CUdevice dev) { return create_context(pctx, dev); }
SIM_EXPORT CUresult cuCtxCreate_v2(CUcontext* pctx, unsigned int, CUdevice dev) { return create_context(pctx, dev); }
SIM_EXPORT CUresult cuCtxCreate_v3(CUcontext* pctx, CUexecAffinityParam*, int, unsigned int, CUdevice dev) {
  return create_context(pctx, dev);
}
SIM_EXPORT CUresult cuCtxCreate_v4(CUcontext* pctx, CUctxCreateParams*, unsigned int, CUdevice dev) {
  return create_context(pctx, dev);
}
SIM_EXPORT CUresult cuCtxDestroy(CUcontext ctx) { return destroy_context(ctx); }
SIM_EXPORT CUresult cuCtxDestroy_v2(CUcontext ctx) { return destroy_context(ctx); }

SIM_EXPORT CUresult cuCtxGetCurrent(CUcontext* pctx) {
  SIM_ENTRY("cuCtxGetCurrent");
  // Leaves errno changed, as a real driver's internal system calls may: lets
  // tests check that cudaleak's own driver calls never change the errno a
  // program sees after a hooked call.
  errno = EBADF;
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  *pctx = current_context();
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuCtxSetCurrent(CUcontext ctx) {
  SIM_ENTRY("cuCtxSetCurrent");
  if (ctx && !valid(ctx, Object::Context)) return CUDA_ERROR_INVALID_CONTEXT;
  set_current_context(ctx);
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext ctx) {
  SIM_ENTRY("cuCtxPushCurrent");
  if (!valid(ctx, Object::Context)) return CUDA_ERROR_INVALID_CONTEXT;
  push_context(ctx);
  return CUDA_SUCCESS;
}
SIM_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext* pctx) {
  SIM_ENTRY("cuCtxPopCurrent");
  if (!current_context()) return CUDA_ERROR_INVALID_CONTEXT;
  CUcontext top = pop_context();
  if (pctx) *pctx = top;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuCtxGetDevice(CUdevice* dev) {
  SIM_ENTRY("cuCtxGetDevice");
  if (!dev) return CUDA_ERROR_INVALID_VALUE;
  if (!current_context()) return CUDA_ERROR_INVALID_CONTEXT;
  *dev = device_of(current_context());
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuCtxSynchronize() { return CUDA_SUCCESS; }

SIM_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  SIM_ENTRY("cuDevicePrimaryCtxRetain");
  if (!pctx) return CUDA_ERROR_INVALID_VALUE;
  if (dev < 0 || dev >= sim.config.devices) return CUDA_ERROR_INVALID_DEVICE;
  auto& device = sim.devices[size_t(dev)];
  if (!device.primary) device.primary = new_handle(Object::Context, dev, nullptr);
  ++device.primary_refcount;
  *pctx = reinterpret_cast<CUcontext>(device.primary);
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return primary_release(dev); }
SIM_EXPORT CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) { return primary_release(dev); }
SIM_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice dev) { return primary_reset(dev); }
SIM_EXPORT CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev) { return primary_reset(dev); }

SIM_EXPORT CUresult cuGreenCtxCreate(CUgreenCtx* phCtx, CUdevResourceDesc, CUdevice dev, unsigned int) {
  SIM_ENTRY("cuGreenCtxCreate");
  if (!phCtx) return CUDA_ERROR_INVALID_VALUE;
  if (dev < 0 || dev >= sim.config.devices) return CUDA_ERROR_INVALID_DEVICE;
  *phCtx = reinterpret_cast<CUgreenCtx>(new_handle(Object::GreenContext, dev, nullptr));
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuGreenCtxDestroy(CUgreenCtx ctx) {
  SIM_ENTRY("cuGreenCtxDestroy");
  if (!valid(ctx, Object::GreenContext)) return CUDA_ERROR_INVALID_HANDLE;
  reinterpret_cast<Handle*>(ctx)->alive = false;
  return CUDA_SUCCESS;
}
