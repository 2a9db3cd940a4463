#include "real_dlsym.h"

#include <dlfcn.h>

void* cudaleak_real_dlsym_ptr = nullptr;

namespace cudaleak {

DlsymFn real_dlsym() {
  if (!cudaleak_real_dlsym_ptr) {
    // dlvsym is not interposed; RTLD_NEXT from here is the C library.
    void* fn = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34");
    if (!fn) fn = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5");
    __atomic_store_n(&cudaleak_real_dlsym_ptr, fn, __ATOMIC_RELEASE);
  }
  return reinterpret_cast<DlsymFn>(__atomic_load_n(&cudaleak_real_dlsym_ptr, __ATOMIC_ACQUIRE));
}

}  // namespace cudaleak
