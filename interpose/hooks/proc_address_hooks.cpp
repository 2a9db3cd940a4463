// cuGetProcAddress (v1: 4 arguments, CUDA 11.3; v2: 5 arguments, CUDA 12).
// The real call runs first with identical arguments; when it hands out an
// entry point we hook, we keep the real pointer in the slot of that ABI
// variant and return our hook instead. Asked for "cuGetProcAddress" itself we
// return our own wrapper, since cudart makes every later look-up through it.
#include "interpose/hooks/hook.h"
#include "interpose/base/log.h"
#include "interpose/base/self_module.h"

using namespace cudaleak;

namespace {

void substitute(const char* symbol, void** pfn, int version, cuuint64_t flags) {
  if (!symbol || !pfn || !*pfn || is_own_code(*pfn)) return;
  bool per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
  int id = hook_for_lookup(symbol, version, per_thread);
  if (id < 0) return;
  remember_real(id, *pfn);
  *pfn = hook_info(static_cast<HookId>(id)).wrapper;
  log_verbose("cuGetProcAddress(%s, %d, flags=%llu) -> %s", symbol, version, static_cast<unsigned long long>(flags),
              hook_info(static_cast<HookId>(id)).symbol);
}

}  // namespace

CUDALEAK_EXPORT CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int version, cuuint64_t flags) {
  Hook<HookId::cuGetProcAddress> hook;
  CUresult r = hook.real(symbol, pfn, version, flags);
  if (r == CUDA_SUCCESS) substitute(symbol, pfn, version, flags);
  return r;
}

CUDALEAK_EXPORT CUresult CUDAAPI cuGetProcAddress_v2(const char* symbol, void** pfn, int version, cuuint64_t flags,
                                                     CUdriverProcAddressQueryResult* status) {
  Hook<HookId::cuGetProcAddress_v2> hook;
  CUresult r = hook.real(symbol, pfn, version, flags, status);
  if (r == CUDA_SUCCESS) substitute(symbol, pfn, version, flags);
  return r;
}
