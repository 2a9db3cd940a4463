#include "interpose/runtime/device_heap.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <unordered_map>
#include <utility>

#include "interpose/driver/module_image.h"
#include "common/private_library.h"
#include "interpose/base/log.h"
#include "interpose/base/real_dlsym.h"
#include "interpose/base/state.h"
#include "interpose/device/device_heap_events.h"
#include "interpose/driver/sanitizer_api.h"
#include "interpose/pyframes/python_frames.h"
#include "interpose/track/tracker.h"
#include "report/symbols/device_lines.h"

namespace cudaleak::device_heap {

namespace {

namespace san = sanitizer;

// Events one launch can report; later ones are dropped and counted.
constexpr uint32_t kCapacity = 1u << 18;

san::Api g_api{};
// The patch fatbin. start() may run before this file's dynamic
// initialisation (the preload starts from its constructor), so nothing it
// sets may have a constructor of its own that would run later and erase it.
std::string& patches_path() {
  static std::string* path = new std::string();
  return *path;
}
std::mutex g_mutex;
// The host stacks of the launches in flight, from their begin to their end
// (a kernel may run long): held for the stack depot's collection. Under g_mutex.
std::multiset<uint32_t> g_launch_stacks;
std::set<CUcontext> g_contexts_with_patches;  // under g_mutex
std::atomic<bool> g_dropped_told{false};

// The line tables of loaded modules whose kernels call malloc and that were
// built with line information (-lineinfo, -G): read from the cubin the
// Sanitizer API hands over at the load, kept (12 bytes a row) until the
// process ends, at most kMaxLineRows rows in all; a module past that has no
// lines. Under g_mutex.
using LineTable = symbols::DeviceLineTable;
constexpr size_t kMaxLineRows = 4u << 20;
std::map<CUmodule, std::shared_ptr<const LineTable>> g_line_tables;
size_t g_line_rows = 0;

struct Launch {
  CudaleakDeviceHeapBuffer* buffer = nullptr;
  uint32_t stack_id = 0;
  std::string kernel;
  tracker::Placement where;
  san::StreamHandle stream = nullptr;
  bool active = false;
  // The kernel's line table, its symbol name and where its code lies.
  std::shared_ptr<const LineTable> lines;
  std::string symbol;
  uint64_t function_pc = 0, function_bytes = 0;
};
// Per thread: a buffer per context (host memory the device writes), and the
// launch under way (begin and end come on the launching thread).
thread_local std::unordered_map<CUcontext, CudaleakDeviceHeapBuffer*>* t_buffers = nullptr;
thread_local Launch* t_launch = nullptr;

bool readable(const std::string& path) { return !path.empty() && access(path.c_str(), R_OK) == 0; }

// The Sanitizer API library: the option's path, else that of the CUDA
// installation (CUDA_HOME, CUDA_PATH, /usr/local/cuda).
std::string find_library() {
  if (!options().device_heap_sanitizer.empty()) return options().device_heap_sanitizer;
  for (const char* env : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* root = std::getenv(env)) {
      std::string p = std::string(root) + "/compute-sanitizer/libsanitizer-public.so";
      if (readable(p)) return p;
    }
  return "/usr/local/cuda/compute-sanitizer/libsanitizer-public.so";
}

// The patches: the option's path, else lib/cudaleak/ beside the preload.
std::string find_patches() {
  if (!options().device_heap_patches.empty()) return options().device_heap_patches;
  return own_directory() + "/cudaleak/device_heap_patches.fatbin";
}

std::string demangled(const char* name) {
  if (!name) return "?";
  int status = 0;
  char* d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  if (status != 0 || !d) return name;
  std::string out = d;
  std::free(d);
  return out;
}

void keep_line_table(const san::ModuleData& m) {
  {
    // A handle the driver gives out again after an unload is another module.
    std::lock_guard lock(g_mutex);
    auto it = g_line_tables.find(m.module);
    if (it != g_line_tables.end()) g_line_rows -= it->second->rows(), g_line_tables.erase(it);
  }
  if (!m.cubin || m.cubin_size == 0 || !g_api.get_function_pc_and_size) return;
  // Only kernels that call malloc need their lines: others are not decoded.
  if (!module_image::cubin_calls_malloc(m.cubin, m.cubin_size)) return;
  auto table = std::make_shared<const LineTable>(LineTable::read(m.cubin, m.cubin_size));
  if (table->empty() || !table->calls_malloc()) return;
  std::lock_guard lock(g_mutex);
  if (g_line_rows + table->rows() > kMaxLineRows) {
    static bool told = false;
    if (!std::exchange(told, true))
      log_message(
          "device_heap: the line tables of the modules loaded so far hold %zu rows; later modules' "
          "device-side mallocs are reported without their source line",
          g_line_rows);
    return;
  }
  g_line_rows += table->rows();
  g_line_tables[m.module] = std::move(table);
}

// The source line of a malloc at `pc`, when the launch's kernel has a line
// table and the pc lies in its code (device functions of a whole-program
// build lie there too).
symbols::DeviceLine line_of(const Launch& launch, uint64_t pc) {
  if (!launch.lines || pc < launch.function_pc || pc - launch.function_pc >= launch.function_bytes) return {};
  return launch.lines->at(launch.symbol, pc - launch.function_pc);
}

uint32_t device_frame(const Launch& launch, uint64_t pc) {
  symbols::DeviceLine where = line_of(launch, pc);
  return pyframes::intern_device_frame(launch.kernel, pc, where.file, where.line);
}

void module_loaded(const san::ModuleData& m) {
  keep_line_table(m);
  {
    std::lock_guard lock(g_mutex);
    if (g_contexts_with_patches.insert(m.context).second &&
        g_api.add_patches_from_file(patches_path().c_str(), m.context) != 0) {
      log_message(
          "device_heap: the patches in %s do not load (built for another GPU?); device-side allocations "
          "are not tracked",
          patches_path().c_str());
      return;
    }
  }
  g_api.patch_instructions(san::kDeviceSideMalloc, m.module, "cudaleak_device_malloc");
  g_api.patch_instructions(san::kDeviceSideFree, m.module, "cudaleak_device_free");
  g_api.patch_module(m.module);
}

CudaleakDeviceHeapBuffer* buffer_for(CUcontext context) {
  if (!t_buffers) t_buffers = new std::unordered_map<CUcontext, CudaleakDeviceHeapBuffer*>();
  auto it = t_buffers->find(context);
  if (it != t_buffers->end()) return it->second;
  void* memory = nullptr;
  size_t bytes = sizeof(CudaleakDeviceHeapBuffer) + sizeof(CudaleakDeviceHeapEvent) * (kCapacity - 1);
  if (g_api.alloc_host(context, &memory, bytes) != 0 || !memory) return nullptr;
  auto* b = static_cast<CudaleakDeviceHeapBuffer*>(memory);
  std::memset(b, 0, sizeof(CudaleakDeviceHeapBuffer));
  b->capacity = kCapacity;
  (*t_buffers)[context] = b;
  return b;
}

void forget_launch_stack(uint32_t id) {
  std::lock_guard lock(g_mutex);
  if (auto it = g_launch_stacks.find(id); it != g_launch_stacks.end()) g_launch_stacks.erase(it);
}

void launch_begin(const san::LaunchData& l) {
  if (!t_launch) t_launch = new Launch();
  Launch& launch = *t_launch;
  if (launch.active) forget_launch_stack(launch.stack_id);  // its end never came
  launch.active = false;
  launch.buffer = buffer_for(l.context);
  if (!launch.buffer) return;
  launch.buffer->next = 0;
  launch.stack_id = tracker::capture_here();
  {
    std::lock_guard lock(g_mutex);
    g_launch_stacks.insert(launch.stack_id);
  }
  launch.kernel = demangled(l.function_name);
  launch.where = tracker::current_placement();
  launch.where.context = reinterpret_cast<uint64_t>(l.context);
  launch.where.device = int(l.device);
  launch.stream = l.hstream;
  launch.lines.reset();
  {
    std::lock_guard lock(g_mutex);
    auto it = g_line_tables.find(l.module);
    if (it != g_line_tables.end()) launch.lines = it->second;
  }
  if (launch.lines && l.function_name &&
      g_api.get_function_pc_and_size(l.module, l.function_name, &launch.function_pc, &launch.function_bytes) == 0) {
    launch.symbol = l.function_name;
  } else {
    launch.lines.reset();
  }
  if (g_api.set_launch_callback_data) g_api.set_launch_callback_data(l.launch, l.function, l.hstream, launch.buffer);
  else g_api.set_callback_data(l.function, launch.buffer);
  launch.active = true;
}

// The launch is over once its stream is: its events are read then.
void launch_end() {
  if (!t_launch || !t_launch->active) return;
  Launch& launch = *t_launch;
  launch.active = false;
  g_api.stream_synchronize(launch.stream);
  CudaleakDeviceHeapBuffer& b = *launch.buffer;
  uint32_t n = b.next < b.capacity ? b.next : b.capacity;
  if (b.next > b.capacity && !g_dropped_told.exchange(true))
    log_message(
        "device_heap: %s made %u device-side mallocs and frees in one launch; those past %u are not "
        "tracked",
        launch.kernel.c_str(), b.next, b.capacity);
  // Mallocs that returned NULL (the heap was full), counted per call site.
  std::unordered_map<uint64_t, uint64_t> failed;
  for (uint32_t i = 0; i < n; ++i) {
    CudaleakDeviceHeapEvent& e = b.events[i];
    if (e.type == CUDALEAK_DEVICE_HEAP_FREE) {
      if (e.address) tracker::device_freed(e.address);
    } else if (e.type == CUDALEAK_DEVICE_HEAP_MALLOC) {
      if (e.address)
        tracker::device_allocated(launch.stack_id, device_frame(launch, e.pc), e.address, e.bytes, launch.where);
      else if (e.bytes) ++failed[e.pc];
    }
    e.type = 0;
  }
  for (const auto& [pc, count] : failed)
    tracker::device_malloc_failed(launch.stack_id, device_frame(launch, pc), count, launch.where.context);
  b.next = 0;
  forget_launch_stack(launch.stack_id);
}

void callback(void*, int domain, int cbid, const void* data) {
  try {
    if (domain == san::kDomainResource && cbid == san::kModuleLoaded)
      module_loaded(*static_cast<const san::ModuleData*>(data));
    else if (domain == san::kDomainLaunch && cbid == san::kLaunchBegin)
      launch_begin(*static_cast<const san::LaunchData*>(data));
    else if (domain == san::kDomainLaunch && cbid == san::kLaunchEnd) launch_end();
  } catch (...) {
    internal_failure("tracking device-side allocations");
  }
}

template <typename Fn>
bool bind(void* lib, Fn& slot, const char* name) {
  slot = reinterpret_cast<Fn>(real_dlsym() ? real_dlsym()(lib, name) : dlsym(lib, name));
  return slot != nullptr;
}

}  // namespace

void stack_ids(std::vector<uint32_t>& out) {
  std::lock_guard lock(g_mutex);
  out.insert(out.end(), g_launch_stacks.begin(), g_launch_stacks.end());
}

void start() {
  if (!options().device_heap) return;
  const std::string path = find_library();
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    log_message("device_heap: the Sanitizer API library %s did not load (%s); set device_heap_sanitizer", path.c_str(),
                dlerror());
    return;
  }
  san::Api a{};
  bool all = bind(lib, a.subscribe, "sanitizerSubscribe") && bind(lib, a.enable_domain, "sanitizerEnableDomain") &&
             bind(lib, a.add_patches_from_file, "sanitizerAddPatchesFromFile") &&
             bind(lib, a.patch_instructions, "sanitizerPatchInstructions") &&
             bind(lib, a.patch_module, "sanitizerPatchModule") &&
             bind(lib, a.set_callback_data, "sanitizerSetCallbackData") &&
             bind(lib, a.alloc_host, "sanitizerAllocHost") &&
             bind(lib, a.stream_synchronize, "sanitizerStreamSynchronize");
  bind(lib, a.set_launch_callback_data, "sanitizerSetLaunchCallbackData");
  bind(lib, a.get_function_pc_and_size, "sanitizerGetFunctionPcAndSize");
  if (!all) {
    log_message("device_heap: %s lacks entry points of the Sanitizer API", path.c_str());
    return;
  }
  patches_path() = find_patches();
  if (!readable(patches_path())) {
    log_message("device_heap: the device patches %s are missing; set device_heap_patches", patches_path().c_str());
    return;
  }
  g_api = a;
  san::Subscriber subscriber = nullptr;
  if (g_api.subscribe(&subscriber, callback, nullptr) != 0 ||
      g_api.enable_domain(1, subscriber, san::kDomainResource) != 0 ||
      g_api.enable_domain(1, subscriber, san::kDomainLaunch) != 0) {
    log_message("device_heap: the Sanitizer API refused the subscription (another tool holds it?)");
    return;
  }
  if (options().verbose) log_message("device_heap: %s with %s", path.c_str(), patches_path().c_str());
}


}  // namespace cudaleak::device_heap
