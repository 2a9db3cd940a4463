// State of the simulated GPU: devices backed by host memory, a budget of device
// memory per device, and fault injection. Shared by every driver entry point.
#pragma once
#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

// Exported: the simulated NVML reads the same state.
#pragma GCC visibility push(default)
namespace simcuda {

enum class Object : uint32_t {
  Context = 0x43545801,
  Stream,
  Event,
  Pool,
  Array,
  Mipmapped,
  GreenContext,
  Graph,
  GraphExec,
  Module,
  Library,
  Texture,
  Surface,
  ExternalMemory,
  ExternalSemaphore,
};

// Every handle the simulated driver hands out points at one of these, so that
// a stale or foreign handle is recognised instead of crashing.
struct Handle {
  Object type;
  int device;
  CUcontext context;  // owning context (nullptr: not context-bound)
  size_t bytes;
  bool alive = true;
};

struct Allocation {
  size_t bytes;
  int device;            // -1: host (pinned / registered)
  CUcontext context;     // nullptr: survives context destruction (async, vmm)
  bool counted;          // counts against the device memory budget
  bool managed = false;  // cuMemAllocManaged: lives where it was last prefetched
};

struct VmmHandle {
  size_t bytes;
  int device;
  int refcount;       // the handle and its mappings
  uint64_t physical;  // the memory behind it: a handle imported in this process shares its original's
};

struct Device {
  size_t used = 0;
  size_t async_used = 0;  // stream-ordered memory, for pool attributes
  Handle* primary = nullptr;
  int primary_refcount = 0;
};

// Another process holding memory on a device (CUDALEAK_SIM_OTHER_PROCESS).
struct OtherProcess {
  unsigned pid = 0;
  std::string name;
  size_t bytes = 0;
  int device = 0;
};

struct Config {
  int devices = 1;
  size_t memory_per_device = size_t(16) << 30;
  std::vector<OtherProcess> others;
  size_t pool_cached = 0;  // CUDALEAK_SIM_POOL_CACHED: reserved but unused bytes in every pool
  std::string fail_api;    // CUDALEAK_SIM_FAIL=api:N[:code]
  long fail_call = 0;
  CUresult fail_code = CUDA_ERROR_OUT_OF_MEMORY;
};

class State {
 public:
  static State& get();

  Config config;
  std::mutex mutex;
  std::vector<Device> devices;
  std::unordered_map<uintptr_t, Allocation> memory;  // device, pinned, registered, managed, async
  std::unordered_map<uint64_t, VmmHandle> vmm;
  // Handles alive on each physical allocation (by the id of the handle that
  // made it): its memory counts as used until the last one goes.
  std::unordered_map<uint64_t, int> vmm_physical_handles;
  std::unordered_map<uintptr_t, size_t> reservations;
  // Peer access enabled from a context (first) to a peer context (second).
  std::vector<std::pair<const void*, const void*>> peer_access;
  // Context limits (cuCtxSetLimit) and the device memory each reserves, by
  // context and CUlimit: the simulated driver reserves it at once.
  struct Limits {
    size_t value[5] = {1024, size_t(8) << 20, size_t(8) << 20, 2, 2048};  // the real defaults
    size_t reserved[5] = {};
    int device = 0;
  };
  std::unordered_map<const void*, Limits> limits;
  std::unordered_map<uintptr_t, uint64_t> mappings;
  uint64_t next_vmm_handle = 0x1000;
  // Graphs: the allocations of their allocation nodes; streams being captured.
  struct Graph {
    std::vector<uintptr_t> allocations;
    bool instantiated = false;
  };
  std::unordered_map<const void*, Graph> graphs;
  std::unordered_map<const void*, void*> capturing;  // stream -> graph
  std::unordered_map<int, uint64_t> shared_vmm;      // exported "file descriptor" -> vmm handle
  std::unordered_map<int, int> shared_pools;         // exported "file descriptor" -> pool device
  // Pool attributes a program set (cuMemPoolSetAttribute), by pool and CUmemPool_attribute.
  std::unordered_map<const void*, std::unordered_map<int, cuuint64_t>> pool_attributes;
  int next_shared_fd = 1000;
  bool initialized = false;

  // Fault injection: true when this call of `api` is the configured failing one.
  bool should_fail(const char* api);

  CUresult allocate(int device, size_t bytes, CUcontext ctx, bool counted, void** out);
  // Bytes other simulated processes hold on `device`.
  size_t others_on(int device) const;
  // Device memory the limits set on `device`'s contexts reserve.
  size_t limits_on(int device) const;
  // What a new allocation may still take on `device`.
  size_t available(int device) const;
  CUresult release(uintptr_t address);

 private:
  State();
  std::unordered_map<std::string, long> calls_;
};

Handle* new_handle(Object type, int device, CUcontext ctx, size_t bytes = 0);
bool valid(const void* handle, Object type);
CUcontext current_context();
void set_current_context(CUcontext ctx);  // replaces the top of the thread's stack; null pops it
void push_context(CUcontext ctx);
CUcontext pop_context();  // the context popped, null when the stack was empty
int device_of(CUcontext ctx);
size_t parse_size(const char* text, size_t fallback);
// Stream capture (graph.cpp): the graph a stream is captured into, or nullptr.
void* capture_graph_of(CUstream stream);
void add_to_graph(void* graph, uintptr_t allocation);
// A module was loaded in `context` (device_code.cpp): the simulated Sanitizer API hears of it.
void module_loaded(CUcontext context, CUmodule module, const void* image, size_t bytes);

}  // namespace simcuda
#pragma GCC visibility pop

// Shared prologue of every entry point: the driver must be initialised and the
// configured fault injected before anything else happens.
#define SIM_ENTRY(api)                                     \
  auto& sim = ::simcuda::State::get();                     \
  if (!sim.initialized) return CUDA_ERROR_NOT_INITIALIZED; \
  if (sim.should_fail(api)) return sim.config.fail_code
