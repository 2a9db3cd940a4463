#include "interpose/base/real_dlsym.h"

#include <dlfcn.h>

#include "interpose/base/next_symbol.h"

void* cudaleak_real_dlsym_ptr = nullptr;
void* cudaleak_real_dlvsym_ptr = nullptr;

namespace cudaleak {

namespace {

constexpr const char* kVersions[] = {"GLIBC_2.34", "GLIBC_2.2.5"};  // libc.so.6 since 2.34; libdl.so.2 before

// `slot`, filled on first use with the first version `find(version)` finds.
// A race fills it twice with the same answer.
template <typename Find>
void* resolved(void*& slot, Find find) {
  if (!__atomic_load_n(&slot, __ATOMIC_ACQUIRE)) {
    void* fn = nullptr;
    for (const char* v : kVersions)
      if (!fn) fn = find(v);
    __atomic_store_n(&slot, fn, __ATOMIC_RELEASE);
  }
  return __atomic_load_n(&slot, __ATOMIC_ACQUIRE);
}

}  // namespace

DlvsymFn real_dlvsym() {
  return reinterpret_cast<DlvsymFn>(
      resolved(cudaleak_real_dlvsym_ptr, [](const char* v) { return next_versioned_symbol("dlvsym", v); }));
}

DlsymFn real_dlsym() {
  DlvsymFn dlv = real_dlvsym();
  if (!dlv) return nullptr;
  return reinterpret_cast<DlsymFn>(resolved(cudaleak_real_dlsym_ptr, [dlv](const char* v) {
    return dlv(RTLD_NEXT, "dlsym", v);  // RTLD_NEXT from here: past this library
  }));
}

}  // namespace cudaleak
