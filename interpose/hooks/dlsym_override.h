// dlsym override. The exported `dlsym` is a small assembly entry
// (dlsym_entry.S) that asks dlsym_substitute() whether to hand out a hook and
// otherwise tail-jumps into the real dlsym with the caller's own return
// address, so RTLD_NEXT keeps meaning "next after the caller".
#pragma once
#include "../base/real_dlsym.h"

extern "C" {
// Called by the assembly entry: our hook for (handle, symbol), nullptr to pass
// through, or 1 for "not found" (the symbol exists only as our own export).
void* cudaleak_dlsym_substitute(void* handle, const char* symbol) __attribute__((visibility("hidden")));
}
