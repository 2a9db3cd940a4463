// Contexts: created (v1-v4), green, and primary (retain/release/reset
// refcounts per device). Destroying or resetting a context tears down what
// it owned; those resources are reported as leaks marked with the teardown.
// Every call that changes the thread's current context updates the learned
// one (track/bound_context.h), tracking or not: the driver's state changed.
#include "interpose/hooks/hook.h"
#include "interpose/runtime/unseen_memory.h"
#include "interpose/track/bound_context.h"

using namespace cudaleak;

namespace {

template <HookId id, typename... Args>
CUresult create_context(CUcontext* pctx, CUdevice dev, Args... args) {
  Hook<id> hook;
  CUresult r = hook.real(pctx, args..., dev);
  if (r == CUDA_SUCCESS && pctx) {
    tracker::bound::push(as_handle(*pctx));
    tracker::bound::learn_device(as_handle(*pctx), dev);
  }
  if (r == CUDA_SUCCESS && hook.tracking() && pctx) {
    tracker::created(id, Kind::Context, Space::Context, as_handle(*pctx), 0, tracker::Placement{as_handle(*pctx), dev});
    if (unseen_memory::wanted()) unseen_memory::context_appeared(dev);
  }
  return r;
}

template <HookId id>
CUresult destroy_context(CUcontext ctx) {
  Hook<id> hook;
  CUresult r = hook.real(ctx);
  if (r == CUDA_SUCCESS) tracker::bound::destroyed(as_handle(ctx));
  if (hook.tracking() && ctx) tracker::context_destroyed(id, Space::Context, as_handle(ctx), r, "context_destroy");
  return r;
}

template <HookId id>
CUresult push_current(CUcontext ctx) {
  Hook<id> hook;
  CUresult r = hook.real(ctx);
  if (r == CUDA_SUCCESS) tracker::bound::push(as_handle(ctx));
  return r;
}

template <HookId id>
CUresult pop_current(CUcontext* pctx) {
  Hook<id> hook;
  CUresult r = hook.real(pctx);
  if (r == CUDA_SUCCESS) tracker::bound::pop();
  return r;
}

template <HookId id>
CUresult primary_release(CUdevice dev) {
  Hook<id> hook;
  CUresult r = hook.real(dev);
  if (r == CUDA_SUCCESS && hook.tracking()) tracker::primary_released(dev);
  return r;
}

template <HookId id>
CUresult primary_reset(CUdevice dev) {
  Hook<id> hook;
  CUresult r = hook.real(dev);
  if (r == CUDA_SUCCESS && hook.tracking()) tracker::primary_reset(dev);
  return r;
}

}  // namespace

CUDALEAK_EXPORT CUresult CUDAAPI cuCtxCreate(CUcontext* pctx, unsigned int flags, CUdevice dev) {
  return create_context<HookId::cuCtxCreate>(pctx, dev, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuCtxCreate_v2(CUcontext* pctx, unsigned int flags, CUdevice dev) {
  return create_context<HookId::cuCtxCreate_v2>(pctx, dev, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuCtxCreate_v3(CUcontext* pctx, CUexecAffinityParam* params, int count,
                                                unsigned int flags, CUdevice dev) {
  return create_context<HookId::cuCtxCreate_v3>(pctx, dev, params, count, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuCtxCreate_v4(CUcontext* pctx, CUctxCreateParams* params, unsigned int flags,
                                                CUdevice dev) {
  return create_context<HookId::cuCtxCreate_v4>(pctx, dev, params, flags);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuCtxDestroy(CUcontext ctx) { return destroy_context<HookId::cuCtxDestroy>(ctx); }
CUDALEAK_EXPORT CUresult CUDAAPI cuCtxDestroy_v2(CUcontext ctx) {
  return destroy_context<HookId::cuCtxDestroy_v2>(ctx);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx) {
  Hook<HookId::cuCtxSetCurrent> hook;
  CUresult r = hook.real(ctx);
  if (r == CUDA_SUCCESS) tracker::bound::set_current(as_handle(ctx));
  return r;
}
CUDALEAK_EXPORT CUresult CUDAAPI cuCtxPushCurrent(CUcontext ctx) { return push_current<HookId::cuCtxPushCurrent>(ctx); }
CUDALEAK_EXPORT CUresult CUDAAPI cuCtxPushCurrent_v2(CUcontext ctx) {
  return push_current<HookId::cuCtxPushCurrent_v2>(ctx);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuCtxPopCurrent(CUcontext* pctx) { return pop_current<HookId::cuCtxPopCurrent>(pctx); }
CUDALEAK_EXPORT CUresult CUDAAPI cuCtxPopCurrent_v2(CUcontext* pctx) {
  return pop_current<HookId::cuCtxPopCurrent_v2>(pctx);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuGreenCtxCreate(CUgreenCtx* phCtx, CUdevResourceDesc desc, CUdevice dev,
                                                  unsigned int flags) {
  Hook<HookId::cuGreenCtxCreate> hook;
  CUresult r = hook.real(phCtx, desc, dev, flags);
  if (r == CUDA_SUCCESS && hook.tracking() && phCtx)
    tracker::created(HookId::cuGreenCtxCreate, Kind::Context, Space::GreenContext, as_handle(*phCtx), 0,
                     tracker::Placement{as_handle(*phCtx), dev});
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuGreenCtxDestroy(CUgreenCtx ctx) {
  Hook<HookId::cuGreenCtxDestroy> hook;
  CUresult r = hook.real(ctx);
  if (hook.tracking() && ctx)
    tracker::context_destroyed(HookId::cuGreenCtxDestroy, Space::GreenContext, as_handle(ctx), r,
                               "green_context_destroy");
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  Hook<HookId::cuDevicePrimaryCtxRetain> hook;
  CUresult r = hook.real(pctx, dev);
  if (r == CUDA_SUCCESS && pctx) tracker::bound::learn_device(as_handle(*pctx), dev);
  if (r == CUDA_SUCCESS && hook.tracking() && pctx) {
    tracker::primary_retained(dev, as_handle(*pctx));
    if (unseen_memory::wanted()) unseen_memory::context_appeared(dev);
  }
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) {
  return primary_release<HookId::cuDevicePrimaryCtxRelease>(dev);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
  return primary_release<HookId::cuDevicePrimaryCtxRelease_v2>(dev);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev) {
  return primary_reset<HookId::cuDevicePrimaryCtxReset>(dev);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice dev) {
  return primary_reset<HookId::cuDevicePrimaryCtxReset_v2>(dev);
}
