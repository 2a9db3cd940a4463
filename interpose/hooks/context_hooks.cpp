// Contexts: created (v1-v4), green, and primary (retain/release/reset
// refcounts per device). Destroying or resetting a context tears down what
// it owned; those resources are reported as leaks marked with the teardown.
// Every call that changes the thread's current context updates the learned
// one (track/bound_context.h), tracking or not: the driver's state changed.
#include "interpose/hooks/hook.h"
#include "interpose/runtime/device_identity.h"
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
    device_identity::remember(dev);
  }
  if (r == CUDA_SUCCESS && hook.tracking() && pctx) {
    hook.created(as_handle(*pctx), 0, tracker::Placement{as_handle(*pctx), dev});
    if (unseen_memory::wanted()) unseen_memory::context_appeared(dev);
  }
  return r;
}

// A context or a green context destroyed, with what it owned; only a context
// can be a thread's current one.
template <HookId id, typename Context>
CUresult destroy_context(Context ctx) {
  constexpr bool green = Hook<id>::space == Space::GreenContext;
  Hook<id> hook;
  CUresult r = hook.real(ctx);
  if constexpr (!green)
    if (r == CUDA_SUCCESS) tracker::bound::destroyed(as_handle(ctx));
  if (hook.tracking() && ctx)
    tracker::context_destroyed(id, hook.space, as_handle(ctx), r, green ? "green_context_destroy" : "context_destroy");
  return r;
}

// A call that changes the thread's current context: `learn` it once the call
// succeeded, tracking or not.
template <HookId id, typename Arg, typename Learn>
CUresult bind(Arg arg, Learn learn) {
  static_assert(HookTraits<id>::role == HookRole::Bind);
  Hook<id> hook;
  CUresult r = hook.real(arg);
  if (r == CUDA_SUCCESS) learn(arg);
  return r;
}
template <HookId id>
CUresult push_current(CUcontext ctx) {
  return bind<id>(ctx, [](CUcontext c) { tracker::bound::push(as_handle(c)); });
}
template <HookId id>
CUresult pop_current(CUcontext* pctx) {
  return bind<id>(pctx, [](CUcontext*) { tracker::bound::pop(); });
}

// A primary context released or reset: `record(device)` once the call succeeded.
template <HookId id, void (*record)(int)>
CUresult primary_changed(CUdevice dev) {
  Hook<id> hook;
  CUresult r = hook.real(dev);
  if (r == CUDA_SUCCESS && hook.tracking()) record(dev);
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
  return bind<HookId::cuCtxSetCurrent>(ctx, [](CUcontext c) { tracker::bound::set_current(as_handle(c)); });
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
    hook.created(as_handle(*phCtx), 0, tracker::Placement{as_handle(*phCtx), dev});
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuGreenCtxDestroy(CUgreenCtx ctx) {
  return destroy_context<HookId::cuGreenCtxDestroy>(ctx);
}

CUDALEAK_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  Hook<HookId::cuDevicePrimaryCtxRetain> hook;
  CUresult r = hook.real(pctx, dev);
  if (r == CUDA_SUCCESS && pctx) {
    tracker::bound::learn_device(as_handle(*pctx), dev);
    device_identity::remember(dev);
  }
  if (r == CUDA_SUCCESS && hook.tracking() && pctx) {
    tracker::primary_retained(dev, as_handle(*pctx));
    if (unseen_memory::wanted()) unseen_memory::context_appeared(dev);
  }
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) {
  return primary_changed<HookId::cuDevicePrimaryCtxRelease, tracker::primary_released>(dev);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
  return primary_changed<HookId::cuDevicePrimaryCtxRelease_v2, tracker::primary_released>(dev);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev) {
  return primary_changed<HookId::cuDevicePrimaryCtxReset, tracker::primary_reset>(dev);
}
CUDALEAK_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice dev) {
  return primary_changed<HookId::cuDevicePrimaryCtxReset_v2, tracker::primary_reset>(dev);
}
