// glibc's own dlsym and dlvsym, past the library's overrides of both
// (hooks/dlsym_override.h): every lookup of a real function goes through here.
#pragma once

namespace cudaleak {

using DlsymFn = void* (*)(void*, const char*);
using DlvsymFn = void* (*)(void*, const char*, const char*);

// The C library's dlvsym (GLIBC_2.34, else GLIBC_2.2.5), found in its symbol
// table (base/next_symbol.h); resolved on first use.
DlvsymFn real_dlvsym();
// The C library's dlsym, found with it; resolved on first use.
DlsymFn real_dlsym();

}  // namespace cudaleak

extern "C" {
// The jump targets of the overrides' assembly entries (hooks/dlsym_entry.S).
extern void* cudaleak_real_dlsym_ptr __attribute__((visibility("hidden")));
extern void* cudaleak_real_dlvsym_ptr __attribute__((visibility("hidden")));
}
