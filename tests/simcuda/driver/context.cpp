// Contexts of the simulated driver: created, primary (refcounted per device),
// green, and the per-thread current context. Destroying a context releases what
// the real driver releases with it (memory, arrays, streams, events).
#include "tests/simcuda/driver/sim_cuda.h"
#include "tests/simcuda/driver/sim_state.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

using namespace simcuda;

namespace {

void release_context_resources(State& sim, CUcontext ctx) {
  {
    std::lock_guard lock(sim.mutex);
    sim.limits.erase(ctx);  // a new or reset context starts from the defaults
    std::erase_if(sim.peer_access, [&](const auto& link) { return link.first == ctx || link.second == ctx; });
  }
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

// Peer access: any two distinct simulated devices can reach each other.
SIM_EXPORT CUresult cuDeviceCanAccessPeer(int* can, CUdevice device, CUdevice peer) {
  SIM_ENTRY("cuDeviceCanAccessPeer");
  const int n = int(sim.devices.size());
  if (!can) return CUDA_ERROR_INVALID_VALUE;
  if (device < 0 || device >= n || peer < 0 || peer >= n) return CUDA_ERROR_INVALID_DEVICE;
  *can = device != peer;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags) {
  SIM_ENTRY("cuCtxEnablePeerAccess");
  CUcontext ctx = current_context();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  if (flags != 0 || !valid(peer, Object::Context)) return CUDA_ERROR_INVALID_VALUE;
  if (device_of(peer) == device_of(ctx)) return CUDA_ERROR_INVALID_DEVICE;
  std::lock_guard lock(sim.mutex);
  auto link = std::make_pair(static_cast<const void*>(ctx), static_cast<const void*>(peer));
  if (std::find(sim.peer_access.begin(), sim.peer_access.end(), link) != sim.peer_access.end())
    return CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
  sim.peer_access.push_back(link);
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuCtxDisablePeerAccess(CUcontext peer) {
  SIM_ENTRY("cuCtxDisablePeerAccess");
  CUcontext ctx = current_context();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard lock(sim.mutex);
  auto link = std::make_pair(static_cast<const void*>(ctx), static_cast<const void*>(peer));
  auto it = std::find(sim.peer_access.begin(), sim.peer_access.end(), link);
  if (it == sim.peer_access.end()) return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
  sim.peer_access.erase(it);
  return CUDA_SUCCESS;
}

// Limits reserve what the real driver reserves (docs/oom.md): the stack for
// every resident thread (4 multiprocessors x 2048 threads here), the heap and
// the printf buffer as set; the device runtime's pending launches nothing
// (the real one reserves them at its first launch).
SIM_EXPORT CUresult cuCtxSetLimit(CUlimit limit, size_t value) {
  SIM_ENTRY("cuCtxSetLimit");
  CUcontext ctx = current_context();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  if (unsigned(limit) > CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT) return CUDA_ERROR_UNSUPPORTED_LIMIT;
  if (limit == CU_LIMIT_PRINTF_FIFO_SIZE && value < (size_t(512) << 10)) value = size_t(512) << 10;  // the real minimum
  size_t bytes = 0;
  if (limit == CU_LIMIT_STACK_SIZE) bytes = value * 4 * 2048;
  if (limit == CU_LIMIT_MALLOC_HEAP_SIZE || limit == CU_LIMIT_PRINTF_FIFO_SIZE) bytes = value;
  std::lock_guard lock(sim.mutex);
  auto& l = sim.limits[ctx];
  l.device = device_of(ctx);
  size_t before = l.reserved[limit];
  l.reserved[limit] = 0;
  if (bytes > sim.available(l.device)) {
    l.reserved[limit] = before;
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  l.reserved[limit] = bytes;
  l.value[limit] = value;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuCtxGetLimit(size_t* value, CUlimit limit) {
  SIM_ENTRY("cuCtxGetLimit");
  CUcontext ctx = current_context();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  if (!value || unsigned(limit) > CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(sim.mutex);
  auto it = sim.limits.find(ctx);
  *value = it != sim.limits.end() ? it->second.value[limit] : State::Limits{}.value[limit];
  return CUDA_SUCCESS;
}

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

SIM_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
  SIM_ENTRY("cuDevicePrimaryCtxGetState");
  if (!flags || !active) return CUDA_ERROR_INVALID_VALUE;
  if (dev < 0 || dev >= sim.config.devices) return CUDA_ERROR_INVALID_DEVICE;
  *flags = 0;
  *active = sim.devices[size_t(dev)].primary_refcount > 0;
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
