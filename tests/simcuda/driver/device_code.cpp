// Device code of the simulated GPU (include/simcuda_device.h): kernels whose
// bodies are host functions, a device heap per context, and the hooks of the
// simulated Sanitizer API (tests/simcuda/sanitizer).
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>

#include "report/symbols/device_lines.h"
#include "tests/simcuda/include/simcuda_device.h"
#include "tests/simcuda/driver/sim_cuda.h"
#include "tests/simcuda/driver/sim_state.h"

using namespace simcuda;

namespace {

std::atomic<const SimcudaSanitizerHooks*> g_hooks{nullptr};
std::mutex g_mutex;
// Modules of registered fatbins, per context and fatbin.
std::map<std::pair<const void*, const void*>, CUmodule> g_runtime_modules;
// Kernels by module and name: a handle and where their code starts.
struct Function {
  uint64_t pc;
};
std::map<std::pair<const void*, std::string>, Function*> g_functions;
uint64_t g_next_pc = 0x7f0000010000;
constexpr uint64_t kFunctionBytes = 0x10000;
// Each context's device heap: its blocks and the bytes they take.
struct Heap {
  size_t used = 0;
  std::unordered_map<uintptr_t, size_t> blocks;
};
std::unordered_map<const void*, Heap> g_heaps;
std::atomic<uint64_t> g_grid_id{0};
// The line tables of loaded cubins built with -lineinfo, by module.
std::map<const void*, cudaleak::symbols::DeviceLineTable> g_lines;

// The cubin the real Sanitizer API hands over for a module: an image that is
// one, or the first uncompressed cubin of a fatbin (or of the wrapper cudart
// registers). Empty when there is none.
std::pair<const void*, size_t> cubin_of(const void* image, size_t bytes) {
  if (!image) return {nullptr, 0};
  uint32_t magic;
  std::memcpy(&magic, image, 4);
  if (magic == 0x466243B1) {  // { magic, version, const void* fatbin, ... }
    const void* inner;
    std::memcpy(&inner, static_cast<const char*>(image) + 8, sizeof inner);
    return cubin_of(inner, 0);
  }
  if (std::memcmp(image,
                  "\x7f"
                  "ELF",
                  4) == 0)
    return {image, bytes};
  if (magic != 0xBA55ED50) return {nullptr, 0};
  const auto* p = static_cast<const unsigned char*>(image);
  uint16_t header;
  uint64_t entries;
  std::memcpy(&header, p + 6, 2);
  std::memcpy(&entries, p + 8, 8);
  for (uint64_t at = header; at < header + entries;) {
    uint16_t kind;
    uint32_t entry_header;
    uint64_t payload, flags;
    std::memcpy(&kind, p + at, 2);
    std::memcpy(&entry_header, p + at + 4, 4);
    std::memcpy(&payload, p + at + 8, 8);
    std::memcpy(&flags, p + at + 40, 8);
    if (kind == 2 && !(flags & 0xe000)) return {p + at + entry_header, payload};
    at += entry_header + payload;
  }
  return {nullptr, 0};
}

// Where the call at `site` lies in `f`: a source line with a row in the
// kernel's line table (the program passes the line of its kernel's malloc),
// else the kernel's start + 16 x site.
uint64_t pc_of(const SimcudaLaunch* l, unsigned site) {
  std::lock_guard lock(g_mutex);
  auto t = g_lines.find(l->module);
  if (t != g_lines.end())
    if (auto offset = t->second.offset_of(l->name, int(site))) return l->function_pc + *offset;
  return l->function_pc + 16 * uint64_t(site);
}
thread_local const SimcudaLaunch* t_launch = nullptr;

Function* function_of(CUmodule module, const std::string& name) {
  std::lock_guard lock(g_mutex);
  Function*& f = g_functions[{module, name}];
  if (!f) {
    f = new Function{g_next_pc};
    g_next_pc += kFunctionBytes;
  }
  return f;
}

}  // namespace

namespace simcuda {
// Called by every module load of the driver (objects.cpp).
void module_loaded(CUcontext context, CUmodule module, const void* image, size_t bytes) {
  auto [cubin, cubin_bytes] = cubin_of(image, bytes);
  if (cubin && cubin_bytes) {
    auto table = cudaleak::symbols::DeviceLineTable::read(cubin, cubin_bytes);
    std::lock_guard lock(g_mutex);
    g_lines[module] = std::move(table);
  }
  if (const SimcudaSanitizerHooks* h = g_hooks.load())
    h->module_loaded(context, module, cubin ? cubin : image, cubin ? cubin_bytes : bytes);
}
}  // namespace simcuda

SIM_EXPORT void simcuda_set_sanitizer_hooks(const SimcudaSanitizerHooks* hooks) { g_hooks.store(hooks); }

SIM_EXPORT CUmod_st* simcuda_runtime_module(const void* fatbin) {
  CUcontext ctx = current_context();
  if (!ctx) return nullptr;
  CUmodule module;
  {
    std::lock_guard lock(g_mutex);
    CUmodule& m = g_runtime_modules[{ctx, fatbin}];
    if (m) return m;
    m = reinterpret_cast<CUmodule>(new_handle(Object::Module, device_of(ctx), ctx));
    module = m;
  }
  module_loaded(ctx, module, fatbin, 0);
  return module;
}

SIM_EXPORT uint64_t simcuda_function_pc(CUmod_st* module, const char* name, uint64_t* bytes) {
  if (!module || !name) return 0;
  if (bytes) *bytes = kFunctionBytes;
  return function_of(module, name)->pc;
}

SIM_EXPORT int simcuda_launch(CUmod_st* module, const char* name, const unsigned grid[3], const unsigned block[3],
                              CUstream_st* stream, SimcudaKernelBody body, void** args) {
  CUcontext ctx = current_context();
  if (!ctx) return CUDA_ERROR_INVALID_CONTEXT;
  if (!name) return CUDA_ERROR_INVALID_VALUE;
  Function* f = function_of(module, name);
  SimcudaLaunch l{ctx,
                  stream,
                  module,
                  reinterpret_cast<CUfunction>(f),
                  name,
                  {grid[0], grid[1], grid[2]},
                  {block[0], block[1], block[2]},
                  ++g_grid_id,
                  device_of(ctx),
                  f->pc};
  const SimcudaSanitizerHooks* h = g_hooks.load();
  if (h) h->launch_begin(&l);
  const SimcudaLaunch* outer = t_launch;
  t_launch = &l;
  if (body) {
    SimcudaThread t{};
    for (int i = 0; i < 3; ++i) t.grid[i] = grid[i], t.block[i] = block[i];
    t.args = args;
    for (unsigned bz = 0; bz < grid[2]; ++bz)
      for (unsigned by = 0; by < grid[1]; ++by)
        for (unsigned bx = 0; bx < grid[0]; ++bx)
          for (unsigned tz = 0; tz < block[2]; ++tz)
            for (unsigned ty = 0; ty < block[1]; ++ty)
              for (unsigned tx = 0; tx < block[0]; ++tx) {
                t.block_idx[0] = bx, t.block_idx[1] = by, t.block_idx[2] = bz;
                t.thread_idx[0] = tx, t.thread_idx[1] = ty, t.thread_idx[2] = tz;
                body(&t);
              }
  }
  t_launch = outer;
  if (h) h->launch_end(&l);
  return CUDA_SUCCESS;
}

SIM_EXPORT void* simcuda_device_malloc(size_t bytes, unsigned site) {
  const SimcudaLaunch* l = t_launch;
  if (!l) return nullptr;  // not in a kernel
  void* p = nullptr;
  {
    auto& sim = State::get();
    std::lock_guard state_lock(sim.mutex);
    auto it = sim.limits.find(l->context);
    size_t limit = it == sim.limits.end() ? State::Limits{}.value[CU_LIMIT_MALLOC_HEAP_SIZE]
                                          : it->second.value[CU_LIMIT_MALLOC_HEAP_SIZE];
    std::lock_guard lock(g_mutex);
    Heap& heap = g_heaps[l->context];
    if (bytes && heap.used + bytes <= limit && (p = std::malloc(bytes))) {
      heap.used += bytes;
      heap.blocks[uintptr_t(p)] = bytes;
    }
  }
  if (const SimcudaSanitizerHooks* h = g_hooks.load()) h->device_malloc(l, pc_of(l, site), p, bytes);
  return p;
}

SIM_EXPORT void simcuda_device_free(void* address, unsigned site) {
  const SimcudaLaunch* l = t_launch;
  if (!l) return;
  {
    std::lock_guard lock(g_mutex);
    Heap& heap = g_heaps[l->context];
    auto it = heap.blocks.find(uintptr_t(address));
    if (it != heap.blocks.end()) {
      heap.used -= it->second;
      heap.blocks.erase(it);
      std::free(address);
    }
  }
  if (const SimcudaSanitizerHooks* h = g_hooks.load()) h->device_free(l, pc_of(l, site), address);
}
