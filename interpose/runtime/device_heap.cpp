#include "interpose/runtime/device_heap.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <unordered_map>

#include "common/private_library.h"
#include "interpose/base/log.h"
#include "interpose/base/real_dlsym.h"
#include "interpose/base/state.h"
#include "interpose/device/device_heap_events.h"
#include "interpose/driver/sanitizer_api.h"
#include "interpose/pyframes/python_frames.h"
#include "interpose/track/tracker.h"

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
std::set<CUcontext> g_contexts_with_patches;  // under g_mutex
std::atomic<bool> g_dropped_told{false};

struct Launch {
  CudaleakDeviceHeapBuffer* buffer = nullptr;
  uint32_t stack_id = 0;
  std::string kernel;
  tracker::Placement where;
  san::StreamHandle stream = nullptr;
  bool active = false;
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

void module_loaded(const san::ModuleData& m) {
  {
    std::lock_guard lock(g_mutex);
    if (g_contexts_with_patches.insert(m.context).second &&
        g_api.add_patches_from_file(patches_path().c_str(), m.context) != 0) {
      log_message("device_heap: the patches in %s do not load (built for another GPU?); device-side allocations "
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

void launch_begin(const san::LaunchData& l) {
  if (!t_launch) t_launch = new Launch();
  Launch& launch = *t_launch;
  launch.active = false;
  launch.buffer = buffer_for(l.context);
  if (!launch.buffer) return;
  launch.buffer->next = 0;
  launch.stack_id = tracker::capture_here();
  launch.kernel = demangled(l.function_name);
  launch.where = tracker::current_placement();
  launch.where.context = reinterpret_cast<uint64_t>(l.context);
  launch.where.device = int(l.device);
  launch.stream = l.hstream;
  if (g_api.set_launch_callback_data)
    g_api.set_launch_callback_data(l.launch, l.function, l.hstream, launch.buffer);
  else
    g_api.set_callback_data(l.function, launch.buffer);
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
    log_message("device_heap: %s made %u device-side mallocs and frees in one launch; those past %u are not "
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
        tracker::device_allocated(launch.stack_id, pyframes::intern_device_frame(launch.kernel, e.pc), e.address,
                                  e.bytes, launch.where);
      else if (e.bytes)
        ++failed[e.pc];
    }
    e.type = 0;
  }
  for (const auto& [pc, count] : failed)
    tracker::device_malloc_failed(launch.stack_id, pyframes::intern_device_frame(launch.kernel, pc), count,
                                  launch.where.context);
  b.next = 0;
}

void callback(void*, int domain, int cbid, const void* data) {
  try {
    if (domain == san::kDomainResource && cbid == san::kModuleLoaded)
      module_loaded(*static_cast<const san::ModuleData*>(data));
    else if (domain == san::kDomainLaunch && cbid == san::kLaunchBegin)
      launch_begin(*static_cast<const san::LaunchData*>(data));
    else if (domain == san::kDomainLaunch && cbid == san::kLaunchEnd)
      launch_end();
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

void start() {
  if (!options().device_heap) return;
  const std::string path = find_library();
  void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    log_message("device_heap: the Sanitizer API library %s did not load (%s); set device_heap_sanitizer",
                path.c_str(), dlerror());
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
