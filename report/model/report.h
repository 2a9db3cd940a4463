// The report model: one schema shared by the writer in the preload library,
// the text and JSON renderers, and the readers of later tools. Field names and
// meaning are documented in docs/report-format.md.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/enum_names.h"
#include "common/record/frame.h"
#include "common/record/primary_context.h"
#include "common/record/reachability_scan.h"
#include "common/record/record.h"
#include "common/record/timeline.h"

namespace cudaleak::report {

using cudaleak::Kind;

inline constexpr const char* kFormatName = "cudaleak-report";
// 2: one out-of-memory event per failure the program saw, the failed calls that
// led to it in `attempts`; live-tensor groups attributed by segment.
inline constexpr int kFormatVersion = 2;

// A record as the report lists it under its group: the record, and the
// library handle whose creation made it (its handle; 0 for none).
struct Allocation {
  Record record;
  uint64_t owner = 0;
  int rank = -1;  // merged reports, a group folded from several ranks: the rank it was made on
  bool operator==(const Allocation&) const = default;
};

struct KindTotal {
  uint64_t bytes = 0;
  uint64_t count = 0;
  bool operator==(const KindTotal&) const = default;
};

// One rank's part of a leak group merged from several ranks (LeakGroup::ranks).
struct RankShare {
  int rank = -1;
  int pid = 0;
  std::string host;
  int device = -1;
  uint64_t bytes = 0, count = 0;
  bool operator==(const RankShare&) const = default;
};

// What live memory pools the program created keep (a pool group's `pool`):
// counted by the tracker as the program went, since the driver is not asked
// at exit. The driver gives a pool's free memory back at each
// synchronization down to its release threshold, so a pool keeps up to
// max(used, min(high_water, threshold)) reserved; with no threshold set
// (0), what is in use. Summed over the group's pools.
struct PoolHolding {
  uint64_t reserved = 0;           // kept reserved at most, as above
  uint64_t used = 0;               // live stream-ordered allocations from them
  uint64_t high_water = 0;         // the most in use since creation or the last cuMemPoolTrimTo
  bool threshold_set = false;      // the program set a release threshold
  uint64_t release_threshold = 0;  // the latest it set (UINT64_MAX: unlimited)
  std::string threshold_api;       // cudaMemPoolSetAttribute or cuMemPoolSetAttribute
  std::vector<Frame> threshold_stack;
  bool operator==(const PoolHolding&) const = default;
};

struct LeakGroup {
  Kind kind = Kind::Device;
  std::string api;  // outermost CUDA API the program called
  uint64_t bytes = 0;
  uint64_t count = 0;
  int device = -1;
  std::string released_by;  // "" when still alive; else what tore it down
  std::vector<Frame> stack;
  std::vector<Allocation> allocations;  // capped by max_allocations
  // Library handles: the driver resources their creation made, by kind
  // (kind library_handle only). Those resources are groups of their own,
  // each with `owner` set to the API that created the handle.
  std::map<Kind, KindTotal> holds;
  std::string owner;
  // A library handle of a statically linked library: its create function
  // runs inside the program and cannot be interposed, so the handle is known
  // only from the frames of its create function in its resources' stacks.
  // How many handles there are is not known: count is 0.
  bool attributed_by_stack = false;
  // Memory pools (kind pool) the tracker counted: what they keep.
  bool has_pool = false;
  PoolHolding pool;

  // Added by the CI gate (docs/ci.md); empty/false when it did not run.
  std::string site;           // identity that survives ASLR and rebuilds
  std::string suppressed_by;  // the rule that hid it, e.g. "leak:foo (supp.txt:3)"
  std::string cached_by;      // the caching allocator that holds it, e.g. "PyTorch caching allocator"
  BaselineState baseline = BaselineState::None;  // set when a baseline was given
  bool growing = false;                          // its count rose at least twice over the observations and never fell
  std::vector<uint64_t> count_history;           // counts at earlier checkpoints/snapshots, oldest first
  bool fails_gate = false;                       // counted by the gate
  // Whether its resources were still referenced from the program's memory
  // at the report (a group's resources share it), and from where, when
  // known: "g_cache (app)", "a heap block reached from g_cache (app)", "a
  // thread's stack".
  Reachability reachability = Reachability::NotScanned;
  std::string referenced_from;

  int pid = 0;    // in merged reports: the process it belongs to
  int rank = -1;  // and that process's rank
  // In merged reports, a site that leaked on several ranks of a job is one
  // group: each rank's share (then pid is 0, rank -1, and device -1 unless
  // every share is on one device). Empty otherwise.
  std::vector<RankShare> ranks;

  uint32_t stack_id = 0;  // process-local interned stack; not written
  bool operator==(const LeakGroup&) const = default;
};

struct Summary {
  uint64_t leaked_bytes = 0;  // not suppressed
  uint64_t leaked_count = 0;
  std::map<Kind, KindTotal> by_kind;
  uint64_t suppressed_bytes = 0;
  uint64_t suppressed_count = 0;
  // Held by caching allocators (not leaks unless gate_cached), by allocator.
  uint64_t cached_bytes = 0;
  uint64_t cached_count = 0;
  std::map<std::string, KindTotal> cached_by;
  // Kept reserved by leaked memory pools (PoolHolding::reserved): said
  // apart, never in leaked_bytes, which counts memory the program allocated.
  uint64_t pool_reserved_bytes = 0;
  uint64_t pool_reserved_count = 0;  // pools that keep some
  // Still referenced from the program's memory at the report: alive, not
  // counted in leaked_* (docs/ci.md#lost-or-still-reachable).
  uint64_t reachable_bytes = 0;
  uint64_t reachable_count = 0;
  bool operator==(const Summary&) const = default;
};

struct SuppressionUse {
  std::string rule;    // as written, e.g. "leak:cublasCreate_v2 kind:event"
  std::string source;  // "file:line", or "default" for shipped rules
  uint64_t count = 0;  // resources it hid
  uint64_t bytes = 0;
  bool operator==(const SuppressionUse&) const = default;
};

struct GateResult {
  bool evaluated = false;  // a gate was asked for (error_exitcode) and ran
  bool failed = false;     // leaks the gate counts remain
  std::string error;       // why it could not be evaluated; empty when fine
  uint64_t failing_groups = 0;
  uint64_t failing_bytes = 0;
  uint64_t failing_count = 0;
  // Of the failing groups, those of PyTorch's live tensors at exit
  // (gate_live_tensors); counted in the three numbers above too.
  uint64_t failing_tensor_groups = 0;
  // Of the failing groups, the sites that grew steadily past fail_on_growth
  // (DeviceTimeline::growth); counted in the three numbers above too.
  uint64_t failing_growth_sites = 0;
  bool operator==(const GateResult&) const = default;
};

struct Module {
  std::string path;
  uint64_t base = 0;
  std::string build_id;  // hex, empty when the object has none
  bool operator==(const Module&) const = default;
};

struct Process {
  int pid = 0;
  int ppid = 0;
  std::string exe;
  std::vector<std::string> argv;
  // The rank in a distributed job, from its launcher's environment
  // (report/symbols/launcher_env.h); -1 outside a job.
  int rank = -1;
  // Wall clock (ns since the epoch) when the tracker started, the origin of
  // every time_ns of the report; lets a merge put processes on one axis.
  uint64_t start_unix_ns = 0;
  // Which process and run wrote the report: every report of one process
  // carries the same run_id, and no other process's does. Readers count a
  // process once, from its latest report (merge.h). Empty in reports written
  // before it existed: (pid, start_unix_ns) stands in.
  std::string run_id;
  // The rest of its place in the job: the rank on its host, the number of
  // ranks, and whose variables said so ("torchrun", "openmpi", "pmi",
  // "slurm"); -1, 0 and "" when not known.
  int local_rank = -1;
  int world_size = 0;
  std::string launcher;
  std::string host;  // gethostname(): pids are unique only per host
  bool operator==(const Process&) const = default;
};

// A call that released something the tracker never saw, or failed to release.
struct Note {
  NoteType type = NoteType::UnknownRelease;
  std::string api;
  uint64_t handle = 0;
  int result = 0;  // CUresult of the real call
  uint64_t count = 0;
  std::vector<Frame> stack;
  bool operator==(const Note&) const = default;
};

// Out-of-memory forensics (docs/oom.md): what held the device when a
// tracked allocation failed with out-of-memory.
struct OomSite {
  Kind kind = Kind::Device;
  std::string api, where;
  uint64_t bytes = 0, count = 0;
  uint64_t first_ns = 0, last_ns = 0;  // when its live allocations were made
  std::vector<Frame> stack;
  bool operator==(const OomSite&) const = default;
};

struct PoolUsage {
  uint64_t handle = 0;
  bool is_default = false;
  uint64_t reserved = 0, used = 0;
  bool operator==(const PoolUsage&) const = default;
};

struct OtherProcessUsage {
  int pid = 0;
  std::string name;
  uint64_t bytes = 0;
  bool bytes_known = true;
  // Its rank in a job, read from its environment when it failed, or in a
  // merged report from the process of that pid on the same host; -1 unknown.
  int rank = -1;
  bool operator==(const OtherProcessUsage&) const = default;
};

// PyTorch's own view of its caching allocator (docs/python.md), per device,
// summarized from torch.cuda.memory._snapshot() inside the program.
struct TensorGroup {  // live blocks allocated from one Python stack
  uint64_t bytes = 0, count = 0;
  uint64_t pinning_segments = 0;  // its blocks that keep a segment with free space from being released
  std::vector<Frame> stack;       // Python frames, innermost first
  // PyTorch recorded no stack for these tensors: `stack` is that of the
  // allocation that reserved the memory holding them (the segment's
  // cudaMalloc, or the cuMemMap that grew an expandable segment), native and
  // Python frames as cudaleak recorded it; empty when no tracked allocation
  // covers them.
  bool by_segment = false;
  // Its bytes at the earlier snapshots and reports that read a fresh view
  // (at most 16, oldest first); growing: they rose at least twice up to now
  // and never fell.
  std::vector<uint64_t> bytes_history;
  bool growing = false;
  bool operator==(const TensorGroup&) const = default;
};

struct AllocatorSegment {
  uint64_t address = 0, size = 0;
  // (size, state): state & 3 is 0 free, 1 allocated, 2 other active; state & 4:
  // PyTorch recorded the block's stack (it is in a live_tensors group of its own).
  std::vector<std::pair<uint64_t, int>> blocks;
  bool operator==(const AllocatorSegment&) const = default;
};

struct AllocatorDevice {
  int device = 0;
  uint64_t reserved = 0, allocated = 0, active = 0, segments = 0;
  uint64_t free = 0;  // free blocks inside reserved segments
  uint64_t largest_free_block = 0;
  uint64_t free_in_pinned_segments = 0;  // free bytes in segments that also hold live blocks
  uint64_t pinned_segments = 0;
  bool expandable = false;
  std::vector<TensorGroup> live_tensors;  // biggest first
  std::vector<AllocatorSegment> segment_list;
  int64_t pid = 0;  // in a merged report: the process whose allocator this is
  int rank = -1;
  bool operator==(const AllocatorDevice&) const = default;
};

struct PyTorchView {
  ViewMoment when = ViewMoment::Exit;
  std::string settings;  // PYTORCH_CUDA_ALLOC_CONF
  std::vector<AllocatorDevice> devices;
  const AllocatorDevice* device(int d) const {
    for (const auto& x : devices)
      if (x.device == d) return &x;
    return nullptr;
  }
  bool operator==(const PyTorchView&) const = default;
};

// CuPy's default memory pool as CuPy counts it (the device current when read),
// sent by cudaleak_cupy.py at exit.
struct CupyPool {
  ViewMoment when = ViewMoment::Exit;
  int device = 0;
  uint64_t used_bytes = 0;   // in blocks that live arrays hold
  uint64_t total_bytes = 0;  // held by the pool: used plus its cache of free blocks
  uint64_t free_blocks = 0;
  uint64_t limit_bytes = 0;         // set_limit; 0: none
  uint64_t pinned_free_blocks = 0;  // the pinned-memory pool's cached blocks
  // In a merged report: the process whose pool it is (0 / -1: not said).
  int pid = 0;
  int rank = -1;
  bool operator==(const CupyPool&) const = default;
};

// JAX's own view of its device memory (docs/python.md), sent by
// cudaleak_jax.py from JAX's device memory profile and memory_stats().
struct JaxArrayGroup {  // live arrays made from one Python stack
  uint64_t bytes = 0, count = 0;
  uint64_t largest_bytes = 0;  // its largest array
  std::string shape;           // of the largest, "f32[1024,1024]"; "" where JAX's live arrays did not say
  std::vector<Frame> stack;    // Python frames, innermost first; empty: JAX gave no stack
  // Arrays of this stack that hold no memory: their computation failed
  // (out of memory) without raising and nothing read them; not in bytes/count.
  uint64_t no_memory_count = 0, no_memory_bytes = 0;
  bool operator==(const JaxArrayGroup&) const = default;
};

struct JaxDevice {
  int device = 0;  // the CUDA device number in its process (local_hardware_id)
  int id = 0;      // JAX's own device id (global over a job's processes)
  std::string kind;
  // XLA's pool as memory_stats() counts it (0: not reported).
  uint64_t bytes_in_use = 0, peak_bytes_in_use = 0, bytes_limit = 0, bytes_reserved = 0;
  uint64_t pool_bytes = 0, largest_free_block = 0, num_allocs = 0, largest_alloc_size = 0;
  uint64_t arrays = 0, arrays_bytes = 0;               // every live array on the device that holds memory
  uint64_t no_memory_arrays = 0, no_memory_bytes = 0;  // those whose failed computation left them none
  std::vector<JaxArrayGroup> groups;                   // biggest first, at most 64
  int64_t pid = 0;                                     // in a merged report: the process whose device it is
  int rank = -1;
  bool operator==(const JaxDevice&) const = default;
};

struct JaxView {
  ViewMoment when = ViewMoment::Exit;
  std::string settings;            // the XLA_PYTHON_CLIENT_* variables set
  std::string versions;            // "jax 0.6.0 jaxlib 0.6.0"
  std::string source;              // "profile" (device_memory_profile) or "live_arrays" (no stacks)
  std::string note;                // why the profile was not read
  uint64_t executables_bytes = 0;  // compiled code, as the profile counts it
  std::vector<JaxDevice> devices;
  const JaxDevice* device(int d) const {
    for (const auto& x : devices)
      if (x.device == d) return &x;
    return nullptr;
  }
  bool operator==(const JaxView&) const = default;
};

// One of a jitted function's biggest buffers, as XLA's message lists them.
struct JaxPeakBuffer {
  uint64_t bytes = 0;
  std::string shape, op, file;
  int line = 0;
  bool operator==(const JaxPeakBuffer&) const = default;
};

// What XLA's message says of a compiled function that did not fit
// ("BufferAssignment OOM Debugging"); total_bytes 0: it said nothing.
struct JaxCompiled {
  uint64_t parameter_bytes = 0, output_bytes = 0, temp_bytes = 0, total_bytes = 0;
  std::vector<JaxPeakBuffer> peak_buffers;  // the biggest first, at most 3
  bool operator==(const JaxCompiled&) const = default;
};

// XLA raised RESOURCE_EXHAUSTED: the failure as JAX told it, and its view of
// the device then.
struct JaxOom {
  std::string exception;  // the type it came as: "jaxlib.xla_extension.XlaRuntimeError"
  std::string message;    // XLA's message, its first 4000 characters
  std::string settings;   // the XLA_PYTHON_CLIENT_* variables set
  uint64_t raised = 1;    // times the same failure was raised (XLA again, re-raised as another type)
  JaxCompiled compiled;
  uint64_t executables_bytes = 0;
  JaxDevice device;
  bool operator==(const JaxOom&) const = default;
};

// Device memory the context reserves because the program set one of its
// limits (cuCtxSetLimit / cudaDeviceSetLimit): held while the context lives,
// not a leak (docs/report-format.md#reservations).
struct Reservation {
  std::string limit;   // "stack_size", "malloc_heap_size", "printf_fifo_size", "dev_runtime_pending_launch_count", ...
  uint64_t value = 0;  // the limit in effect after the call (the driver rounds some)
  uint64_t bytes = 0;  // device memory it reserves; 0 where the driver's size for it is not known
  uint64_t threads = 0;  // stack_size: resident threads of the device that each get a stack
  int device = -1;
  uint64_t context = 0;
  uint64_t time_ns = 0;
  std::string api;  // cudaDeviceSetLimit or cuCtxSetLimit
  std::vector<Frame> stack;
  int pid = 0;  // in merged reports
  bool operator==(const Reservation&) const = default;
};

struct Diagnosis {
  Cause cause = Cause::Untracked;
  uint64_t bytes = 0;  // what it explains
  std::string message;
  bool operator==(const Diagnosis&) const = default;
};

// A failed call that led to an out-of-memory without being the failure the
// program saw: a caching allocator flushed its cache and tried again.
struct OomAttempt {
  uint64_t time_ns = 0;
  std::string api;
  uint64_t request_bytes = 0;
  bool device_info = false;
  uint64_t free_bytes = 0;
  std::vector<Frame> stack;
  bool operator==(const OomAttempt&) const = default;
};

// One failure the program saw: a framework's out-of-memory error, or a CUDA
// call that returned out-of-memory to the program. Measured when it happened.
struct OomEvent {
  uint64_t time_ns = 0;
  std::string api;
  uint64_t request_bytes = 0;
  int device = -1;
  uint64_t stream = 0;
  std::vector<Frame> stack;
  bool device_info = false;  // cuMemGetInfo answered
  uint64_t free_bytes = 0, total_bytes = 0;
  uint64_t tracked_bytes = 0;  // this process, this device, memory kinds
  std::map<Kind, uint64_t> tracked_by_kind;
  std::vector<OomSite> top_sites;
  uint64_t recent_window_ns = 0, recent_bytes = 0, old_bytes = 0;
  std::vector<PoolUsage> pools;
  std::string nvml;  // "ok" or why other processes are unknown
  std::vector<OtherProcessUsage> other_processes;
  uint64_t untracked_bytes = 0;           // used - this process - others (contexts, modules, workspaces...)
  std::vector<Reservation> reservations;  // of this device when it failed
  std::vector<Diagnosis> diagnosis;
  // Set when PyTorch raised this out-of-memory (its observer ran): its view of
  // the device at that moment. api is then "PyTorch caching allocator".
  bool has_pytorch = false;
  AllocatorDevice pytorch;
  // Set when XLA raised this out-of-memory (cudaleak_jax saw it); api is then
  // "XLA (JAX)".
  bool has_jax = false;
  JaxOom jax;
  // The failed calls before this one that it ends (oldest first): a caching
  // allocator's retries, and under PyTorch the cudaMalloc calls it made
  // before it raised.
  std::vector<OomAttempt> attempts;
  // A failed call of a caching allocator whose retry succeeded: the program
  // saw no failure. Kept, not told as an out-of-memory.
  bool recovered = false;
  bool printed = false;  // shown on stderr when it happened (runtime only, not in the JSON)
  int pid = 0;           // in merged reports: the process it happened in
  int rank = -1;         // and that process's rank
  bool operator==(const OomEvent&) const = default;
};

// The Python interpreter of the process, when it had one.
struct PythonInfo {
  std::string version;  // "3.12.3"; empty when the process ran no Python
  bool frames = false;  // stacks hold its frames
  std::string note;     // why they do not, when they do not
  bool operator==(const PythonInfo&) const = default;
};

struct Report;

// One process of a merged report.
struct ProcessSummary {
  Process process;
  Reason reason = Reason::Exit;
  uint64_t leaked_bytes = 0;
  uint64_t leaked_count = 0;
  uint64_t duration_ns = 0;  // its report's: from its tracker's start to that report
  static ProcessSummary of(const Report& r);
  bool operator==(const ProcessSummary&) const = default;
};

struct Report {
  std::string format = kFormatName;
  int format_version = kFormatVersion;
  std::string tool_version;
  Reason reason = Reason::Exit;
  int64_t timestamp = 0;  // seconds since the epoch when written
  Process process;
  Summary summary;
  std::vector<LeakGroup> leaks;
  std::vector<Module> modules;
  std::vector<Note> notes;
  uint64_t notes_total = 0;
  std::vector<PrimaryContext> primary_contexts;
  bool symbolized = false;
  std::string checkpoint;  // name, for reason "checkpoint"
  std::vector<SuppressionUse> suppressions;
  GateResult gate;
  Timeline timeline;
  uint64_t duration_ns = 0;               // from the tracker's start to this report
  std::vector<ProcessSummary> processes;  // merged reports: every process merged in
  // Read reports: the earlier reports of those processes (snapshots,
  // checkpoints, out-of-memory reports), which their latest report supersedes
  // and which count in no total (merge.h).
  std::vector<ProcessSummary> history;
  std::vector<OomEvent> oom_events;
  std::vector<Reservation> reservations;  // held by the contexts when the report was written
  // Modules whose kernels call device-side malloc while device_heap was off:
  // what they leaked is not in the report. A file's name, or "" for an image
  // in memory no loaded object holds. Empty with device_heap on.
  std::vector<std::string> device_malloc_modules;
  PythonInfo python;
  bool has_pytorch = false;  // the program used CUDA through PyTorch and cudaleak_torch saw it
  PyTorchView pytorch;       // the latest view (at exit, the view at exit)
  bool has_jax = false;      // the program used a GPU through JAX and cudaleak_jax saw it
  JaxView jax;               // the latest view; merged: every process's devices
  bool has_cupy = false;     // the program used CuPy's memory pool
  CupyPool cupy;
  // A merged report: every process's pool, each named by its process (`cupy`
  // is the first of them).
  std::vector<CupyPool> cupy_processes;
  bool has_reachability = false;  // the reachability scan ran for this report
  ReachabilityScan reachability;
  bool operator==(const Report&) const = default;
};

inline ProcessSummary ProcessSummary::of(const Report& r) {
  return ProcessSummary{r.process, r.reason, r.summary.leaked_bytes, r.summary.leaked_count, r.duration_ns};
}

}  // namespace cudaleak::report
