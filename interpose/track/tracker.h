// The narrow API that hooks call after the real CUDA call returned. Every
// function here is bookkeeping only: it never calls into CUDA except to learn
// the calling thread's current context, saves and restores errno, and turns
// internal failures into pass-through.
#pragma once
#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "interpose/driver/hook_table.h"
#include "common/record/record.h"
#include "interpose/track/timeline.h"
#include "common/record/raw.h"

namespace cudaleak::tracker {

struct Placement {
  uint64_t context = 0;
  int device = -1;
  bool context_asked = false;  // nothing learned named a context: the driver was asked (check_context counts these)
  uint8_t pool = 0;            // stream-ordered memory from a pool the program created: its slot (pool_slot)
};

// The calling thread's current context and its device, as learned from the
// intercepted context calls (bound_context.h); the driver is asked only when
// nothing learned names a context, or a device.
Placement current_placement();
// check_context: creations whose placement was checked against the driver,
// those where the two disagreed, and those where nothing learned named a
// context (the driver was asked).
struct PlacementChecks {
  uint64_t checked = 0, wrong = 0, unseen = 0;
};
PlacementChecks placement_checks();

// A driver function for cudaleak's own use, through the real cuGetProcAddress
// when known, else from the loaded driver; nullptr when there is none.
void* driver_function(const char* name, int version);
// The same, looked up once and kept in `slot`.
template <typename Fn>
Fn cached_driver_function(std::atomic<Fn>& slot, const char* name, int version) {
  Fn fn = slot.load(std::memory_order_acquire);
  if (!fn) {
    fn = reinterpret_cast<Fn>(driver_function(name, version));
    slot.store(fn, std::memory_order_release);
  }
  return fn;
}

// Called at every creation, before it is recorded: the runtime starts its
// reporter thread on the first (the tracker knows nothing of the runtime).
void set_creation_observer(void (*observer)());

void created(HookId api, Kind kind, Space space, uint64_t handle, uint64_t bytes, Placement where, uint64_t stream = 0);
// A release in two steps around the real call. The record leaves the registry
// before the driver frees the handle, so that another thread which gets the
// same handle back from the driver in between never has its new record
// dropped; a failed release puts the record back. A successful release of
// something never seen becomes a note.
struct PendingRelease {
  Space space = Space::DevicePtr;
  uint64_t handle = 0;
  bool found = false;
  Record record;
};
PendingRelease begin_release(Space space, uint64_t handle);
void end_release(HookId api, PendingRelease& pending, CUresult result);
// A handle the library may hand out again while alive: a new record, or one
// more reference to the live one.
void reference_or_create(HookId api, Kind kind, Space space, uint64_t handle);
// cuMemRetainAllocationHandle / cuMemRelease on reference-counted vmm handles.
void reference_added(Space space, uint64_t handle);
void reference_dropped(HookId api, Space space, uint64_t handle, CUresult result);

// Library handles (cublasCreate, cufftPlan1d, ncclCommInitRank, ...). A
// library call opens a scope on its thread; resources the driver hands out
// inside a create's scope belong to the handle it creates (Record::scope).
// Library calls made by another library call (cusolverDnCreate creating its
// cuBLAS handle) belong to the outer one: `outermost` is false for them.
class LibraryCall {
 public:
  LibraryCall();
  ~LibraryCall();
  LibraryCall(const LibraryCall&) = delete;
  LibraryCall& operator=(const LibraryCall&) = delete;
  bool outermost() const { return outermost_; }
  // A call on the handle's behalf (HookRole::Use): the scope becomes the one
  // the handle's creation opened, so what the driver hands out in it is the
  // handle's. A handle not tracked keeps the call's own scope.
  void on_behalf_of(Space space, uint64_t handle);

 private:
  bool outermost_;
};

// Memory pools the program created (pool_ledger.h says what is counted).
// pool_slot is asked by cuMemAllocFromPoolAsync for Placement::pool; the
// others are the pool calls that change what a pool keeps.
void pool_created(uint64_t pool);
void pool_destroyed(uint64_t pool);
uint8_t pool_slot(uint64_t pool);
// A create of `bytes` in the pool of `slot` (after created() recorded it;
// its release subtracts them).
void pool_allocated(uint8_t slot, uint64_t bytes);
void pool_threshold_set(HookId api, uint64_t pool, uint64_t threshold);
void pool_trimmed(uint64_t pool, uint64_t keep);

// Graph allocation nodes: memory added to `graph` (recorded with the graph
// in Record::stream) stays a leak candidate once the graph is instantiated;
// a graph destroyed before any instantiation takes its memory with it.
void graph_memory_added(uint64_t graph);
void graph_instantiated(uint64_t graph);
void graph_destroyed(uint64_t graph);

// A context went away; what it owned is moved to the torn-down list, which
// reports as leaks marked with `reason`.
void context_destroyed(HookId api, Space space, uint64_t context, CUresult result, const char* reason);
void primary_retained(int device, uint64_t context);
void primary_released(int device);
void primary_reset(int device);

// A context limit the program set (cuCtxSetLimit succeeded): `bytes` of
// device memory the context reserves for it (0: not known), `threads` the
// resident threads a stack is reserved for. Replaces the context's earlier
// setting of the same limit; the reservation leaves with its context.
void limit_set(HookId api, int limit, uint64_t value, uint64_t bytes, uint64_t threads, Placement where);

// Managed memory prefetched (cuMemPrefetchAsync): when [dptr, dptr + count)
// covers a whole managed allocation, it now lives on `device` (-1: the host),
// and its record and timeline move there. A prefetch of part of one leaves it
// where it was.
void managed_prefetched(uint64_t dptr, uint64_t count, int device);

// Device-side allocations (device_heap), read after their launch: `address`
// of `bytes` made by a kernel, its stack the device frame `device_frame`
// (pyframes::intern_device_frame) above the launch's stack. A device-side
// free removes it; one never seen is ignored (made before tracking began, or
// by a kernel of a module that was not patched).
void device_allocated(uint32_t launch_stack, uint32_t device_frame, uint64_t address, uint64_t bytes, Placement where);
void device_freed(uint64_t address);
// A module whose kernels call device-side malloc was loaded (`name`: its
// file, or "" for an image in memory). Named at reports while device_heap
// is off, since their leaks are not tracked then (at most 16 names).
void device_malloc_module(const std::string& name);
// Device-side mallocs that returned NULL (the device heap was full): `count`
// of them by the kernel `device_frame` above the launch's stack, in
// `context`. Kept as a note of type device_heap_exhausted (its handle the
// context), counted per kernel and stack.
void device_malloc_failed(uint32_t launch_stack, uint32_t device_frame, uint64_t count, uint64_t context);

report::RawSnapshot snapshot();
// Heap blocks of the tracker's own that hold handles (threads' windows of
// the registry): the reachability scan never follows them.
void own_blocks(void (*visit)(const void* block, void* context), void* context);
report::Timeline timeline(std::vector<std::vector<Timeline::SiteKey>>* site_keys = nullptr);
std::map<int, std::vector<Timeline::PeakGroup>> peak_groups();
// A memory budget's window (Timeline::begin_window): from now, each device's
// peak of device memory, and the sites that grew once over `limit` bytes.
void begin_window(uint64_t limit);
std::vector<Timeline::WindowPeak> window_peaks();
// The first span of the sites' growth histories (option growth_interval_ms);
// at start-up, before any record.
// 0: no growth histories.
void configure_growth(uint64_t interval_ns);
// Requests the program counted so far (cudaleak_requests), and n more.
uint64_t requests_counted();
void count_requests(uint64_t n);
// Per device: the sites whose growth histories are kept (site_growth.h).
std::map<int, std::vector<report::SiteGrowth>> site_growth();
uint64_t elapsed_ns();  // since the tracker started
// The same clock at an earlier CLOCK_MONOTONIC reading (0 before the start).
uint64_t elapsed_ns_at(uint64_t monotonic_ns);
// The calling thread's kernel id, as records carry it.
uint32_t calling_thread();
uint64_t start_unix_ns();  // when it started, on the wall clock
const char* run_id();      // this process's run (tracker_state.h says how it is made)
// Sequence number of the last resource created (0 before the first).
uint64_t current_sequence();
// A copy of an interned stack's frames (empty: id 0, or a stack forgotten).
std::vector<uint64_t> stack(uint32_t id);
// The frames in place, for a report's StackLookup: valid while a StacksHeld
// lives (no stack is forgotten meanwhile).
std::span<const uint64_t> held_stack(uint32_t id);
// The stack depot's collections (stack_depot.h): they start once it stores
// `floor` stacks (0: never); `holders` appends the stack ids the layers above
// keep (called with no lock held).
void configure_stack_collection(size_t floor, void (*holders)(std::vector<uint32_t>& out));
// While one lives, the stack depot forgets nothing (stack_depot.h): a report
// holds it from its snapshot until its stacks are resolved.
class StacksHeld {
 public:
  StacksHeld();
  ~StacksHeld();
  StacksHeld(const StacksHeld&) = delete;
  StacksHeld& operator=(const StacksHeld&) = delete;
};
// The calling thread's stack (with its Python frames), interned.
uint32_t capture_here();
size_t live_count();

// For the crash path (async-signal-safe: no allocation, no lock waited on):
// everything recorded, as raw records and stacks. Parts whose lock is held
// (by the crashed thread, maybe) are skipped and counted.
class CrashVisitor {
 public:
  virtual void resource(const Record& r, const char* released_by) = 0;
  virtual void note(const report::RawNote& n) = 0;
  virtual void stack(uint32_t id, std::span<const uint64_t> frames) = 0;
  virtual void skipped(const char* what, size_t count) = 0;
  virtual void totals(uint64_t notes_total, uint64_t elapsed_ns) = 0;

 protected:
  ~CrashVisitor() = default;
};
void visit_for_crash(CrashVisitor& v);
// The timeline's points, for the crash handler (Timeline::visit_for_crash);
// returns the devices skipped because their lock was held.
size_t visit_timeline_for_crash(Timeline::CrashVisitor& v);

}  // namespace cudaleak::tracker
