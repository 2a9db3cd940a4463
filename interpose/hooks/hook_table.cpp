#include "hook_table.h"

#include <dlfcn.h>

#include <atomic>
#include <cstring>

#include "dlsym_override.h"
#include "../runtime/self_module.h"

namespace cudaleak {

namespace {

#define CUDALEAK_HOOK_ROW(sym, lookup, version, ptsz, pfn) \
  HookInfo{#sym, lookup, version, ptsz, reinterpret_cast<void*>(&::sym)},
const HookInfo kHooks[] = {CUDALEAK_HOOKS(CUDALEAK_HOOK_ROW)};
#undef CUDALEAK_HOOK_ROW
static_assert(sizeof(kHooks) / sizeof(kHooks[0]) == kHookCount);

std::atomic<void*> g_real[kHookCount];

void* resolve_from_driver(const char* symbol) {
  auto dl = real_dlsym();
  if (!dl) return nullptr;
  // A program linked with -lcuda has libcuda.so.1 in its global scope, next after us.
  void* fn = dl(RTLD_NEXT, symbol);
  if (fn && !is_own_code(fn)) return fn;
  // Otherwise the driver may have been loaded privately (dlopen without RTLD_GLOBAL).
  if (void* lib = dlopen("libcuda.so.1", RTLD_NOLOAD | RTLD_LAZY)) {
    fn = dl(lib, symbol);
    dlclose(lib);
    if (fn && !is_own_code(fn)) return fn;
  }
  return nullptr;
}

}  // namespace

const HookInfo& hook_info(HookId id) { return kHooks[static_cast<int>(id)]; }
const char* hook_name(HookId id) { return kHooks[static_cast<int>(id)].symbol; }

int hook_by_symbol(const char* symbol) {
  // Only real driver names: "cu" then an upper-case letter (cudnn*, cublas* never match).
  if (!symbol || symbol[0] != 'c' || symbol[1] != 'u' || symbol[2] < 'A' || symbol[2] > 'Z') return -1;
  for (int i = 0; i < kHookCount; ++i)
    if (std::strcmp(kHooks[i].symbol, symbol) == 0) return i;
  return -1;
}

int hook_for_lookup(const char* name, int version, bool per_thread) {
  if (!name || name[0] != 'c' || name[1] != 'u') return -1;
  int best = -1;
  for (int i = 0; i < kHookCount; ++i) {
    const HookInfo& h = kHooks[i];
    if (h.version > version || std::strcmp(h.lookup, name) != 0) continue;
    if (h.per_thread && !per_thread) continue;
    if (best < 0 || h.version > kHooks[best].version || (h.per_thread && !kHooks[best].per_thread)) best = i;
  }
  return best;
}

void* real_function(HookId id) {
  int i = static_cast<int>(id);
  void* fn = g_real[i].load(std::memory_order_acquire);
  if (!fn) {
    fn = resolve_from_driver(kHooks[i].symbol);
    if (fn) g_real[i].store(fn, std::memory_order_release);
  }
  return fn;
}

void remember_real(int id, void* fn) {
  if (id >= 0 && id < kHookCount && fn && !is_own_code(fn)) g_real[id].store(fn, std::memory_order_release);
}

}  // namespace cudaleak
