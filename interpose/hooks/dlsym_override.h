// dlsym and dlvsym overrides. The exported `dlsym` and `dlvsym` are small
// assembly entries (dlsym_entry.S) that ask the substitutes below whether to
// hand out a hook and otherwise tail-jump into the C library's function with
// the caller's own return address, so RTLD_NEXT keeps meaning "next after the
// caller".
#pragma once
#include "interpose/base/real_dlsym.h"

extern "C" {
// Called by the assembly entries: our function for (handle, symbol[,
// version]), nullptr to pass through, or 1 for "not found" (the symbol exists
// only as our own export).
void* cudaleak_dlsym_substitute(void* handle, const char* symbol) __attribute__((visibility("hidden")));
void* cudaleak_dlvsym_substitute(void* handle, const char* symbol, const char* version)
    __attribute__((visibility("hidden")));
// The entries themselves (hidden aliases of the exported dlsym and dlvsym).
void cudaleak_dlsym_entry() __attribute__((visibility("hidden")));
void cudaleak_dlvsym_entry() __attribute__((visibility("hidden")));
}
