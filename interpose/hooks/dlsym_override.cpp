#include "dlsym_override.h"

#include <dlfcn.h>

#include "../base/self_module.h"
#include "../base/state.h"
#include "../driver/hook_table.h"

namespace {
// Tells the assembly entry to return NULL (dlsym_entry.S).
void* const kNotFound = reinterpret_cast<void*>(1);
}  // namespace

extern "C" void* cudaleak_dlsym_substitute(void* handle, const char* symbol) {
  using namespace cudaleak;
  auto dl = real_dlsym();  // also makes sure the assembly entry has a jump target
  if (!dl || handle == RTLD_NEXT) return nullptr;  // RTLD_NEXT must be resolved relative to the caller
  int id = hook_by_symbol(symbol);
  if (id < 0) return nullptr;
  void* fn = dl(handle, symbol);
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
