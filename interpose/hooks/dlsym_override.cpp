#include "interpose/hooks/dlsym_override.h"

#include <dlfcn.h>

#include "interpose/base/self_module.h"
#include "interpose/base/state.h"
#include "interpose/driver/hook_table.h"

namespace {

using namespace cudaleak;

// Tells the assembly entry to return NULL (dlsym_entry.S).
void* const kNotFound = reinterpret_cast<void*>(1);

// Nothing on this path calls a libc function a sanitizer intercepts
// (loaded_objects.h): ASan and TSan look their interceptors' targets up
// through here before they can serve such a call.

// dlsym and dlvsym themselves. A program (or library) that fetches "the real
// dlsym" (dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5") is the usual idiom) and
// looks CUDA up through it would pass by the overrides; it gets this
// library's entry instead, which forwards everything it does not hook to the
// C library's with the caller's return address, so nothing else changes.
void* own_entry(const char* symbol) {
  if (symbol[0] != 'd' || symbol[1] != 'l') return nullptr;
  if (same_name(symbol, "dlsym")) return reinterpret_cast<void*>(&cudaleak_dlsym_entry);
  if (same_name(symbol, "dlvsym")) return reinterpret_cast<void*>(&cudaleak_dlvsym_entry);
  return nullptr;
}

// The versions under which the C library defines dlsym and dlvsym.
bool loader_version(const char* version) {
  return same_name(version, "GLIBC_2.34") || same_name(version, "GLIBC_2.2.5");
}

// What a lookup of `symbol` in `handle` returns, given `real()`, the C
// library's answer: a hook for a hooked driver entry point, this library's
// entry for dlsym and dlvsym, else nullptr (pass through).
template <typename Real>
void* substitute(void* handle, const char* symbol, bool next_is_loader, Real real) {
  if (!symbol) return nullptr;
  if (void* own = own_entry(symbol)) {
    // RTLD_NEXT is resolved relative to the caller, which only the C library
    // knows; past any caller, the C library defines both functions.
    if (handle == RTLD_NEXT) return next_is_loader ? own : nullptr;
    void* fn = real();
    return fn && !is_own_code(fn) ? own : nullptr;
  }
  if (handle == RTLD_NEXT) return nullptr;  // RTLD_NEXT must be resolved relative to the caller
  int id = hook_by_symbol(symbol);
  if (id < 0) return nullptr;
  void* fn = real();
  if (!fn) return nullptr;
  if (is_own_code(fn)) {
    // RTLD_DEFAULT found our own export. Where the real function exists
    // somewhere (a library loaded privately), ours stands in for it; where it
    // does not, the caller is probing for a library that is not there.
    if (handle == RTLD_DEFAULT && !real_function(static_cast<HookId>(id))) return kNotFound;
    return nullptr;
  }
  remember_real(id, fn);
  note_cuda_seen();
  return hook_info(static_cast<HookId>(id)).wrapper;
}

}  // namespace

extern "C" void* cudaleak_dlsym_substitute(void* handle, const char* symbol) {
  auto dl = real_dlsym();  // also makes sure the assembly entry has a jump target
  if (!dl) return nullptr;
  return substitute(handle, symbol, true, [&] { return dl(handle, symbol); });
}

extern "C" void* cudaleak_dlvsym_substitute(void* handle, const char* symbol, const char* version) {
  auto dlv = real_dlvsym();  // the same for dlvsym's entry
  if (!dlv || !version) return nullptr;
  return substitute(handle, symbol, loader_version(version), [&] { return dlv(handle, symbol, version); });
}
