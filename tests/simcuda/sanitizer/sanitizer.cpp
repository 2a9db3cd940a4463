// A simulated Compute Sanitizer API (libsanitizer-public.so of the simulated
// GPU): the subset cudaleak's device_heap option calls
// (interpose/runtime/device_heap.cpp), over the simulated driver's device
// code (include/simcuda_device.h). Callbacks reach the subscriber as the real
// library's do: module loads in the resource domain, launch begin and end in
// the launch domain, on the thread of the call. Patches: the file must exist;
// patching a module's device-side malloc and free with the functions
// cudaleak_device_malloc and cudaleak_device_free runs, at each such call of
// a kernel of that module, a host copy of interpose/device/device_heap_patches.cu
// that writes the same event into the launch's buffer.
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>

#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>

#include "interpose/device/device_heap_events.h"
#include "interpose/driver/sanitizer_api.h"
#include "tests/simcuda/include/simcuda_device.h"

#define SAN_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using Result = int;
constexpr Result kSuccess = 0, kInvalidParameter = 1, kNotReady = 5, kAlreadyInitialized = 7, kNotFound = 10;
// The constants and layouts cudaleak reads (sanitizer.h's values), from the
// one header that declares them: the two sides cannot drift apart.
using cudaleak::sanitizer::Callback;
using cudaleak::sanitizer::kDeviceSideFree;
using cudaleak::sanitizer::kDeviceSideMalloc;
using cudaleak::sanitizer::kDomainLaunch;
using cudaleak::sanitizer::kDomainResource;
using cudaleak::sanitizer::kLaunchBegin;
using cudaleak::sanitizer::kLaunchEnd;
using cudaleak::sanitizer::kModuleLoaded;
using cudaleak::sanitizer::LaunchData;
using cudaleak::sanitizer::ModuleData;

struct Subscriber {
  Callback callback = nullptr;
  void* userdata = nullptr;
  bool domains[8] = {};
};

std::mutex g_mutex;
Subscriber* g_subscriber = nullptr;      // one at a time, as the real library allows
std::set<CUcontext> g_patched_contexts;  // AddPatches done
// Per module: what its device-side malloc and free are patched with, once PatchModule ran.
struct ModulePatches {
  bool malloc = false, free = false, applied = false;
};
std::map<CUmodule, ModulePatches> g_modules;
std::map<CUfunction, const void*> g_function_data;  // sanitizerSetCallbackData
thread_local const void* t_launch_data = nullptr;   // sanitizerSetLaunchCallbackData, for the launch under way
thread_local const SimcudaLaunch* t_launch = nullptr;

bool wants(int domain) {
  std::lock_guard lock(g_mutex);
  return g_subscriber && g_subscriber->domains[domain];
}
void tell(int domain, int cbid, const void* data) {
  if (!wants(domain)) return;
  g_subscriber->callback(g_subscriber->userdata, domain, cbid, data);
}

LaunchData launch_data(const SimcudaLaunch* l) {
  LaunchData d{};
  d.context = l->context;
  d.stream = l->stream;
  d.hstream = reinterpret_cast<cudaleak::sanitizer::StreamHandle>(l->stream ? uintptr_t(l->stream)
                                                                            : uintptr_t(1));  // never null
  d.module = l->module;
  d.function = l->function;
  d.function_name = l->name;
  for (int i = 0; i < 3; ++i) d.grid[i] = l->grid[i], d.block[i] = l->block[i], d.cluster[i] = 1;
  d.grid_id = l->grid_id;
  d.launch = reinterpret_cast<cudaleak::sanitizer::LaunchHandle>(const_cast<SimcudaLaunch*>(l));
  d.device = l->device;
  return d;
}

void on_module_loaded(CUcontext context, CUmodule module, const void* image, size_t bytes) {
  ModuleData m{context, module, bytes, static_cast<const char*>(image), nullptr};
  tell(kDomainResource, kModuleLoaded, &m);
}
void on_launch_begin(const SimcudaLaunch* l) {
  t_launch = l;
  t_launch_data = nullptr;
  LaunchData d = launch_data(l);
  tell(kDomainLaunch, kLaunchBegin, &d);
}
void on_launch_end(const SimcudaLaunch* l) {
  LaunchData d = launch_data(l);
  tell(kDomainLaunch, kLaunchEnd, &d);
  t_launch = nullptr;
  t_launch_data = nullptr;
}

// The user data a patch of this launch gets, and whether the instruction is patched.
const void* patch_data(const SimcudaLaunch* l, bool is_malloc) {
  std::lock_guard lock(g_mutex);
  auto m = g_modules.find(l->module);
  if (m == g_modules.end() || !m->second.applied || !(is_malloc ? m->second.malloc : m->second.free)) return nullptr;
  if (t_launch == l && t_launch_data) return t_launch_data;
  auto f = g_function_data.find(l->function);
  return f == g_function_data.end() ? nullptr : f->second;
}

// interpose/device/device_heap_patches.cu, on the host.
void record(const SimcudaLaunch* l, const void* userdata, uint32_t type, uint64_t pc, uint64_t address,
            uint64_t bytes) {
  auto* buffer = static_cast<CudaleakDeviceHeapBuffer*>(const_cast<void*>(userdata));
  uint32_t i = __atomic_fetch_add(&buffer->next, 1u, __ATOMIC_RELAXED);
  if (i >= buffer->capacity) return;
  CudaleakDeviceHeapEvent& e = buffer->events[i];
  e.address = address;
  e.bytes = bytes;
  e.pc = pc;
  e.thread = 0;
  (void)l;
  __atomic_store_n(&e.type, type, __ATOMIC_RELEASE);
}

void on_device_malloc(const SimcudaLaunch* l, uint64_t pc, void* address, uint64_t bytes) {
  if (const void* data = patch_data(l, true))
    record(l, data, CUDALEAK_DEVICE_HEAP_MALLOC, pc, uint64_t(uintptr_t(address)), bytes);
}
void on_device_free(const SimcudaLaunch* l, uint64_t pc, void* address) {
  if (const void* data = patch_data(l, false))
    record(l, data, CUDALEAK_DEVICE_HEAP_FREE, pc, uint64_t(uintptr_t(address)), 0);
}

const SimcudaSanitizerHooks g_hooks{on_module_loaded, on_launch_begin, on_launch_end, on_device_malloc, on_device_free};

}  // namespace

SAN_EXPORT Result sanitizerSubscribe(Subscriber** subscriber, Callback callback, void* userdata) {
  if (!subscriber || !callback) return kInvalidParameter;
  std::lock_guard lock(g_mutex);
  if (g_subscriber) return kAlreadyInitialized;
  g_subscriber = new Subscriber{callback, userdata, {}};
  *subscriber = g_subscriber;
  simcuda_set_sanitizer_hooks(&g_hooks);
  return kSuccess;
}

SAN_EXPORT Result sanitizerUnsubscribe(Subscriber* subscriber) {
  std::lock_guard lock(g_mutex);
  if (!subscriber || subscriber != g_subscriber) return kInvalidParameter;
  simcuda_set_sanitizer_hooks(nullptr);
  g_subscriber = nullptr;
  return kSuccess;
}

SAN_EXPORT Result sanitizerEnableDomain(uint32_t enable, Subscriber* subscriber, int domain) {
  std::lock_guard lock(g_mutex);
  if (!subscriber || subscriber != g_subscriber || domain < 0 || domain >= 8) return kInvalidParameter;
  subscriber->domains[domain] = enable != 0;
  return kSuccess;
}

SAN_EXPORT Result sanitizerAddPatchesFromFile(const char* path, CUcontext context) {
  if (!path || access(path, R_OK) != 0) return kInvalidParameter;
  std::lock_guard lock(g_mutex);
  g_patched_contexts.insert(context);
  return kSuccess;
}

SAN_EXPORT Result sanitizerAddPatches(const void* image, size_t, CUcontext context) {
  if (!image) return kInvalidParameter;
  std::lock_guard lock(g_mutex);
  g_patched_contexts.insert(context);
  return kSuccess;
}

// Only the two patches of device_heap_patches.cu exist in the simulated GPU.
SAN_EXPORT Result sanitizerPatchInstructions(int instruction, CUmodule module, const char* patch) {
  if (!patch) return kInvalidParameter;
  std::lock_guard lock(g_mutex);
  ModulePatches& m = g_modules[module];
  if (instruction == kDeviceSideMalloc && std::strcmp(patch, "cudaleak_device_malloc") == 0) m.malloc = true;
  else if (instruction == kDeviceSideFree && std::strcmp(patch, "cudaleak_device_free") == 0) m.free = true;
  else return kNotFound;
  return kSuccess;
}

SAN_EXPORT Result sanitizerPatchModule(CUmodule module) {
  std::lock_guard lock(g_mutex);
  auto it = g_modules.find(module);
  if (it == g_modules.end()) return kInvalidParameter;
  it->second.applied = true;
  return kSuccess;
}

SAN_EXPORT Result sanitizerUnpatchModule(CUmodule module) {
  std::lock_guard lock(g_mutex);
  g_modules.erase(module);
  return kSuccess;
}

SAN_EXPORT Result sanitizerSetCallbackData(CUfunction function, const void* data) {
  std::lock_guard lock(g_mutex);
  g_function_data[function] = data;
  return kSuccess;
}

SAN_EXPORT Result sanitizerSetLaunchCallbackData(void* launch, CUfunction, void*, const void* data) {
  if (!launch || launch != t_launch) return kInvalidParameter;
  t_launch_data = data;
  return kSuccess;
}

// "Pinned host memory the device can read and write": host memory here.
SAN_EXPORT Result sanitizerAllocHost(CUcontext, void** pointer, size_t bytes) {
  if (!pointer) return kInvalidParameter;
  *pointer = std::calloc(1, bytes ? bytes : 1);
  return *pointer ? kSuccess : kNotReady;
}
SAN_EXPORT Result sanitizerFreeHost(CUcontext, void* pointer) {
  std::free(pointer);
  return kSuccess;
}

// Kernels run to completion within their launch.
SAN_EXPORT Result sanitizerStreamSynchronize(void*) { return kSuccess; }

SAN_EXPORT Result sanitizerGetFunctionPcAndSize(CUmodule module, const char* name, uint64_t* pc, uint64_t* size) {
  if (!module || !name || !pc) return kInvalidParameter;
  uint64_t bytes = 0;
  *pc = simcuda_function_pc(module, name, &bytes);
  if (size) *size = bytes;
  return *pc ? kSuccess : kNotFound;
}
