#include "real_dlsym.h"

#include <dlfcn.h>

#include "next_symbol.h"

void* cudaleak_real_dlsym_ptr = nullptr;
void* cudaleak_real_dlvsym_ptr = nullptr;

namespace cudaleak {

namespace {
constexpr const char* kVersions[] = {"GLIBC_2.34", "GLIBC_2.2.5"};  // libc.so.6 since 2.34; libdl.so.2 before
}  // namespace

DlvsymFn real_dlvsym() {
  if (!__atomic_load_n(&cudaleak_real_dlvsym_ptr, __ATOMIC_ACQUIRE)) {
    void* fn = nullptr;
    for (const char* v : kVersions)
      if (!fn) fn = next_versioned_symbol("dlvsym", v);
    __atomic_store_n(&cudaleak_real_dlvsym_ptr, fn, __ATOMIC_RELEASE);
  }
  return reinterpret_cast<DlvsymFn>(__atomic_load_n(&cudaleak_real_dlvsym_ptr, __ATOMIC_ACQUIRE));
}

DlsymFn real_dlsym() {
  if (!__atomic_load_n(&cudaleak_real_dlsym_ptr, __ATOMIC_ACQUIRE)) {
    void* fn = nullptr;
    if (DlvsymFn dlv = real_dlvsym())
      for (const char* v : kVersions)
        if (!fn) fn = dlv(RTLD_NEXT, "dlsym", v);  // RTLD_NEXT from here: past this library
    __atomic_store_n(&cudaleak_real_dlsym_ptr, fn, __ATOMIC_RELEASE);
  }
  return reinterpret_cast<DlsymFn>(__atomic_load_n(&cudaleak_real_dlsym_ptr, __ATOMIC_ACQUIRE));
}

}  // namespace cudaleak
