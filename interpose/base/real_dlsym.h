// glibc's own dlsym, past the library's dlsym override (hooks/dlsym_override.h):
// every lookup of a real function goes through here.
#pragma once

namespace cudaleak {

using DlsymFn = void* (*)(void*, const char*);

// glibc's dlsym (dlvsym GLIBC_2.34, else GLIBC_2.2.5); resolved on first use.
DlsymFn real_dlsym();

}  // namespace cudaleak

extern "C" {
// The jump target of the dlsym override's assembly entry (hooks/dlsym_entry.S).
extern void* cudaleak_real_dlsym_ptr __attribute__((visibility("hidden")));
}
