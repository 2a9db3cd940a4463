#include "interpose/driver/hook_table.h"

#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <cstring>
#include <string>
#include <type_traits>

#include "interpose/base/real_dlsym.h"
#include "interpose/base/self_module.h"

// The library wrappers (library_handle_hooks.cpp), declared with their table types.
#define CUDALEAK_LIBRARY_DECLARE(sym, library, pfn, role, space) \
  extern "C" std::remove_pointer_t<cudaleak::libapi::pfn> sym;
CUDALEAK_LIBRARY_HOOKS(CUDALEAK_LIBRARY_DECLARE)
#undef CUDALEAK_LIBRARY_DECLARE

namespace cudaleak {

namespace {

#define CUDALEAK_HOOK_ROW(sym, lookup, version, ptsz, pfn, role, kind, space) \
  HookInfo{#sym, lookup, version, ptsz, reinterpret_cast<void*>(&::sym), nullptr},
#define CUDALEAK_LIBRARY_ROW(sym, library, pfn, role, space) \
  HookInfo{#sym, nullptr, 0, false, reinterpret_cast<void*>(&::sym), library},
const HookInfo kHooks[] = {CUDALEAK_HOOKS(CUDALEAK_HOOK_ROW) CUDALEAK_LIBRARY_HOOKS(CUDALEAK_LIBRARY_ROW)};
#undef CUDALEAK_HOOK_ROW
#undef CUDALEAK_LIBRARY_ROW
static_assert(sizeof(kHooks) / sizeof(kHooks[0]) == kHookCount);


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

// A library loaded privately (dlopen RTLD_LOCAL, as Python extension modules
// load theirs) is not in the global scope: found among the loaded objects by
// file name ("libcublas.so" matches libcublas.so.13, not libcublasLt.so.13).
void* resolve_from_loaded_library(const char* prefix, const char* symbol) {
  struct Search {
    const char* prefix;
    std::string path;
  } search{prefix, {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        const char* name = info->dlpi_name ? std::strrchr(info->dlpi_name, '/') : nullptr;
        name = name ? name + 1 : info->dlpi_name;
        size_t n = std::strlen(s->prefix);
        if (!name || std::strncmp(name, s->prefix, n) != 0 || (name[n] != '\0' && name[n] != '.')) return 0;
        s->path = info->dlpi_name;
        return 1;
      },
      &search);
  if (search.path.empty()) return nullptr;
  void* fn = nullptr;
  if (void* lib = dlopen(search.path.c_str(), RTLD_NOLOAD | RTLD_LAZY)) {
    fn = real_dlsym()(lib, symbol);
    dlclose(lib);
  }
  return fn && !is_own_code(fn) ? fn : nullptr;
}

void* resolve(const HookInfo& row) {
  if (!row.library) return resolve_from_driver(row.symbol);
  auto dl = real_dlsym();
  if (!dl) return nullptr;
  void* fn = dl(RTLD_NEXT, row.symbol);
  if (fn && !is_own_code(fn)) return fn;
  return resolve_from_loaded_library(row.library, row.symbol);
}

}  // namespace

const HookInfo& hook_info(HookId id) { return kHooks[static_cast<int>(id)]; }
const char* creator_name(uint16_t api) { return api < uint16_t(HookId::Count) ? hook_name(HookId(api)) : "malloc"; }

const char* hook_name(HookId id) { return kHooks[static_cast<int>(id)].symbol; }

int hook_by_symbol(const char* symbol) {
  // Only names that can be hooked: cu* (driver and libraries) and nccl*.
  // By hand, not strcmp: called from dlsym, also by a sanitizer that is not ready to serve it (loaded_objects.h).
  if (!symbol || !((symbol[0] == 'c' && symbol[1] == 'u') ||
                   (symbol[0] == 'n' && symbol[1] == 'c' && symbol[2] == 'c' && symbol[3] == 'l')))
    return -1;
  for (int i = 0; i < kHookCount; ++i)
    if (same_name(kHooks[i].symbol, symbol)) return i;
  return -1;
}

int hook_for_lookup(const char* name, int version, bool per_thread) {
  if (!name || name[0] != 'c' || name[1] != 'u') return -1;
  int best = -1;
  for (int i = 0; i < kHookCount; ++i) {
    const HookInfo& h = kHooks[i];
    if (!h.lookup || h.version > version || std::strcmp(h.lookup, name) != 0) continue;
    if (h.per_thread && !per_thread) continue;
    if (best < 0 || h.version > kHooks[best].version || (h.per_thread && !kHooks[best].per_thread)) best = i;
  }
  return best;
}

std::atomic<void*> detail::g_real[kHookCount];

void* detail::resolve_real_function(HookId id) {
  int i = static_cast<int>(id);
  void* fn = resolve(kHooks[i]);
  if (fn) g_real[i].store(fn, std::memory_order_release);
  return fn;
}

void remember_real(int id, void* fn) {
  if (id >= 0 && id < kHookCount && fn && !is_own_code(fn)) detail::g_real[id].store(fn, std::memory_order_release);
}

}  // namespace cudaleak
