#include "report/oom/diagnose.h"
#include "report/oom/diagnose_jax.h"

#include <algorithm>
#include <map>
#include <cinttypes>
#include <cstdio>
#include <string_view>

#include "report/gate/caching.h"
#include "report/model/cuda_frames.h"
#include "report/model/frame_owner.h"
#include "common/quantities.h"

namespace cudaleak::oom {

using cudaleak::format_bytes;

constexpr const char* kPyTorchCache = "PyTorch caching allocator";  // gate/caching.cpp's name

namespace {

// A moment of the process's life, as the text says it everywhere.
std::string seconds(uint64_t ns) { return cudaleak::format_duration(ns); }

// Causes that decide the matter outright come first, then the rest by bytes.
int weight(report::Cause cause) {
  switch (cause) {
    case report::Cause::RequestTooLarge: return 3;
    case report::Cause::AllocatorLimit: return 2;
    case report::Cause::Fragmentation: return 1;
    default: return 0;
  }
}

// What a user can do about memory a caching allocator holds.
std::string cache_advice(const std::string& allocator) {
  if (allocator.rfind("PyTorch", 0) == 0)
    return "the tensors made there are still alive, or their blocks wait in PyTorch's cache for reuse "
           "(torch.cuda.empty_cache() returns those)";
  if (allocator.rfind("XLA", 0) == 0)
    return "JAX preallocates 75% of the device at its first use and keeps it for its own arrays: "
           "XLA_PYTHON_CLIENT_PREALLOCATE=false allocates on demand, XLA_PYTHON_CLIENT_MEM_FRACTION=0.3 takes a "
           "smaller share, XLA_PYTHON_CLIENT_ALLOCATOR=platform returns memory as soon as arrays die";
  if (allocator.rfind("CuPy", 0) == 0)
    return "the arrays made there are still alive or their blocks wait in CuPy's pool for reuse; "
           "cupy.get_default_memory_pool().free_all_blocks() returns the freed ones";
  return "the allocator keeps freed blocks for reuse until it is asked to release them";
}

bool told_apart(const report::TensorGroup& g);  // below, beside tensor_group_text

// The three biggest, groups that a reader would see as one line (the same
// origin, told apart only by frames deeper than the line) folded together.
std::string tensor_groups_text(const std::vector<const report::TensorGroup*>& groups) {
  struct Folded {
    report::TensorGroup sum;  // the first group's stack, every group's bytes and count
    std::string origin;       // "" for a group told its own way (a workspace, the backward pass)
  };
  std::vector<Folded> folded;
  for (const report::TensorGroup* g : groups) {
    const std::string origin = told_apart(*g) ? "" : tensor_origin(*g);
    auto same = std::find_if(folded.begin(), folded.end(),
                             [&](const Folded& f) { return !origin.empty() && f.origin == origin; });
    if (same == folded.end()) {
      folded.push_back({*g, origin});
    } else {
      same->sum.bytes += g->bytes;
      same->sum.count += g->count;
    }
  }
  std::stable_sort(folded.begin(), folded.end(),
                   [](const Folded& a, const Folded& b) { return a.sum.bytes > b.sum.bytes; });
  std::string s;
  for (size_t i = 0; i < folded.size() && i < 3; ++i) s += (i ? "; " : "") + tensor_group_text(folded[i].sum);
  return s;
}

// The live tensors of one line of the program that accumulated until the
// device was full: PyTorch's groups summed by the program's line (the tensors
// it recorded, and those in segments the line reserved, come as separate
// groups), the biggest line of three or more tensors holding at least half
// of what PyTorch allocated; count 0 when no line dominates.
struct GrowingLine {
  uint64_t bytes = 0, count = 0;
  const report::TensorGroup* biggest = nullptr;  // its biggest group, which names it
};
GrowingLine growing_line(const report::AllocatorDevice& p) {
  std::map<std::pair<std::string, int>, GrowingLine> lines;
  for (const auto& g : p.live_tensors) {
    const report::Frame* f = is_cublas_workspace(g) ? nullptr : report::user_frame(g.stack);
    if (!f) continue;
    GrowingLine& line = lines[{f->file.str(), f->line}];
    line.bytes += g.bytes;
    line.count += g.count;
    if (!line.biggest || g.bytes > line.biggest->bytes) line.biggest = &g;
  }
  GrowingLine best;
  for (const auto& [where, line] : lines)
    if (line.count >= 3 && line.bytes * 2 >= p.allocated && line.bytes > best.bytes) best = line;
  return best;
}

// How fast PyTorch reserved its segments, bytes per second, from the event's
// site of its cache; 0 when unknown.
double reserve_rate(const report::OomEvent& e) {
  for (const report::OomSite& site : e.top_sites)
    if (site.count >= 3 && site.last_ns > site.first_ns && gate::caching_allocator_of(site.stack) == kPyTorchCache)
      return double(site.bytes) * 1e9 / double(site.last_ns - site.first_ns);
  return 0;
}

// Free space stuck in segments explains a failure only where it is a real
// share of the reservation and no line's growth would have used it up
// anyway: with expandable_segments the request would fit, and the growth
// fail a few steps later. Either way the text says how many steps (tensors
// of the growing line) and, where the reservations' pace is known, how long.
void diagnose_fragmentation(const report::OomEvent& e, std::vector<report::Diagnosis>& out,
                            std::vector<report::Diagnosis>& after) {
  const report::AllocatorDevice& p = e.pytorch;
  const uint64_t request = e.request_bytes;
  const uint64_t device_free = e.device_info ? e.free_bytes : 0;
  // A few MiB in pinned segments beside a full device is not fragmentation.
  if (!(device_free < request && p.free + device_free >= request && p.largest_free_block < request &&
        p.free_in_pinned_segments * 4 >= request))
    return;
  const uint64_t stuck = p.free_in_pinned_segments;
  const bool real_share = stuck * 20 >= p.reserved;  // 5% of the reservation
  const GrowingLine grower = growing_line(p);
  const uint64_t each = grower.count ? std::max<uint64_t>(1, grower.bytes / grower.count) : 0;
  const uint64_t steps_left = grower.count ? stuck / each : 0;
  const bool growth_explains = grower.count && steps_left <= grower.count;
  std::vector<const report::TensorGroup*> pinning;
  for (const auto& g : p.live_tensors)
    if (g.pinning_segments) pinning.push_back(&g);
  std::string msg = "fragmentation: PyTorch has " + format_bytes(p.reserved) + " reserved but only " +
                    format_bytes(p.allocated) + " allocated; " + format_bytes(stuck) + " is free inside " +
                    std::to_string(p.pinned_segments) + " segments that live tensors keep, in pieces no larger than " +
                    format_bytes(p.largest_free_block) + ", so the " + format_bytes(request) + " request fits in none";
  if (real_share && !growth_explains) {
    if (!pinning.empty()) msg += ". The tensors that pin them: " + tensor_groups_text(pinning);
    msg += p.expandable ? ". Free or reorder those tensors"
                        : ". Fix: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, or free or reorder those tensors";
    out.push_back({report::Cause::Fragmentation, p.free + device_free, msg});
    return;
  }
  char share[32];
  std::snprintf(share, sizeof share, "%.1f%%", p.reserved ? 100.0 * double(stuck) / double(p.reserved) : 0.0);
  msg += " (" + std::string(share) + " of the reservation); it is not why memory ran out";
  if (grower.count) {
    msg += ": at about " + format_bytes(each) + " a tensor, that space holds " + std::to_string(steps_left) +
           " more of the tensors " + tensor_origin(*grower.biggest) + " (" + std::to_string(grower.count) + " so far)";
    if (const double rate = reserve_rate(e); rate > 0)
      msg += ", about " + seconds(uint64_t(double(stuck) / rate * 1e9)) + " of its growth";
    msg += "; expandable_segments would only delay the failure";
  }
  after.push_back({report::Cause::Fragmentation, p.free + device_free, msg});
}

// PyTorch's view explains its own out-of-memory: the limit it set itself,
// fragmentation of its cache, the live tensors, or cache it still keeps.
void diagnose_pytorch(const report::OomEvent& e, std::vector<report::Diagnosis>& out,
                      std::vector<report::Diagnosis>& after) {
  const report::AllocatorDevice& p = e.pytorch;
  const uint64_t request = e.request_bytes;
  const uint64_t device_free = e.device_info ? e.free_bytes : 0;
  if (e.device_info && device_free >= request)
    out.push_back({report::Cause::AllocatorLimit, device_free,
                   "the device has " + format_bytes(device_free) + " free, more than the request (" +
                       format_bytes(request) +
                       "): PyTorch refused it itself, under a limit the program set "
                       "(torch.cuda.set_per_process_memory_fraction) or an allocator setting"});
  diagnose_fragmentation(e, out, after);
  if (p.allocated && !p.live_tensors.empty()) {
    std::vector<const report::TensorGroup*> groups;
    for (const auto& g : p.live_tensors) groups.push_back(&g);
    out.push_back({report::Cause::LiveTensors, p.allocated,
                   held_by_live_tensors(p.allocated, p.live_tensors, "is held") + ": " + tensor_groups_text(groups) +
                       (groups.front()->count >= 3 && !groups.front()->stack.empty()
                            ? "; tensors from one line that stay alive accumulate (kept in a "
                              "list, a traceback, or a closure)"
                            : "")});
  }
  uint64_t unpinned = p.free > p.free_in_pinned_segments ? p.free - p.free_in_pinned_segments : 0;
  if (unpinned >= request)
    out.push_back({report::Cause::CachedFree, unpinned,
                   "PyTorch keeps " + format_bytes(unpinned) +
                       " cached in segments with no live tensor; "
                       "torch.cuda.empty_cache() returns it"});
}

// What a limit reserves, in the user's words, and what to do about it.
struct LimitWords {
  const char* what;  // "the device heap"
  const char* name;  // cudart's name of the limit
  const char* fix;
};
LimitWords limit_words(const std::string& limit) {
  if (limit == "stack_size")
    return {"thread stacks", "cudaLimitStackSize",
            "the driver reserves the per-thread stack for every thread the device can run at once; set it no higher "
            "than the deepest kernel needs (cuobjdump --dump-resource-usage or cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_"
            "LOCAL_SIZE_BYTES) shows each kernel's stack) or lower it again after the kernel that needs it"};
  if (limit == "malloc_heap_size")
    return {"the device heap", "cudaLimitMallocHeapSize",
            "the heap is reserved in full once a kernel that calls malloc or new runs, whether kernels use it or not; "
            "set it to what the kernels allocate at once, or free device-side allocations (a leak there fills it)"};
  if (limit == "printf_fifo_size")
    return {"the printf buffer", "cudaLimitPrintfFifoSize", "lower it: the default (8 MiB) suits most programs"};
  if (limit == "dev_runtime_pending_launch_count")
    return {"the device runtime's pending launches", "cudaLimitDevRuntimePendingLaunchCount",
            "lower it to the launches kernels keep pending at once"};
  return {"a context limit", "", "lower it"};
}

std::string limit_value_text(const report::Reservation& v) {
  if (v.limit == "dev_runtime_pending_launch_count" || v.limit == "dev_runtime_sync_depth")
    return std::to_string(v.value);
  return format_bytes(v.value);
}

std::string set_where(const report::Reservation& v) {
  std::string s = "set by " + (v.api.empty() ? std::string("cuCtxSetLimit") : v.api);
  if (const report::Frame* f = report::user_frame(v.stack)) s += " in " + frame_line(*f);
  return s;
}

}  // namespace


std::string describe_other_process(const report::OtherProcessUsage& o) {
  std::string inside = o.rank >= 0 ? "rank " + std::to_string(o.rank) : "";
  if (!o.name.empty()) inside += (inside.empty() ? "" : ", ") + o.name;
  return "pid " + std::to_string(o.pid) + (inside.empty() ? "" : " (" + inside + ")");
}

std::string where_of(const std::vector<report::Frame>& stack, const std::string& api) {
  const report::Frame* f = report::user_frame(stack);
  return f ? frame_line(*f) : api;
}


std::string tensor_origin(const report::TensorGroup& g) {
  const report::Frame* pick = report::user_frame(g.stack);
  if (!pick) return "from lines PyTorch did not record (run with --pytorch-stacks true to name them)";
  // PyTorch keeps the innermost frames of a tensor's stack: in a deep
  // library (transformers' KV cache) they may not reach the program's line.
  const std::string library = report::is_library_frame(*pick)
                                  ? " (library code: no line of the program among the frames recorded)"
                                  : "";
  return (g.by_segment ? "in segments reserved by " : "from ") + frame_line(*pick) + library;
}

namespace {
bool has_function(const std::vector<report::Frame>& stack, std::string_view prefix) {
  return std::any_of(stack.begin(), stack.end(),
                     [&](const report::Frame& f) { return f.function.str().starts_with(prefix); });
}
}  // namespace

bool is_cublas_workspace(const report::TensorGroup& g) {
  return g.by_segment && (has_function(g.stack, "at::cuda::setWorkspaceForHandle") ||
                          has_function(g.stack, "at::cuda::getCUDABlasLtWorkspace"));
}

uint64_t cublas_workspace_bytes(const std::vector<report::TensorGroup>& groups) {
  uint64_t bytes = 0;
  for (const auto& g : groups)
    if (is_cublas_workspace(g)) bytes += g.bytes;
  return bytes;
}

std::string held_by_live_tensors(uint64_t allocated, const std::vector<report::TensorGroup>& groups,
                                 const std::string& held) {
  const uint64_t workspaces = std::min(cublas_workspace_bytes(groups), allocated);
  if (!workspaces) return format_bytes(allocated) + " " + held + " by live tensors";
  return format_bytes(allocated - workspaces) + " " + held + " by live tensors and " + format_bytes(workspaces) +
         " by PyTorch's cuBLAS workspaces";
}

namespace {
// Autograd runs the backward pass on threads of its own, which run no Python
// code: no line of the program is on their stacks.
bool reserved_by_backward(const report::TensorGroup& g, bool programs_line) {
  return g.by_segment && !programs_line && has_function(g.stack, "torch::autograd::Engine::thread_main");
}
const report::Frame* segment_line(const report::TensorGroup& g) {
  return g.by_segment ? report::user_frame(g.stack) : nullptr;
}

// Groups whose text names no origin of their own: a workspace, the backward pass.
bool told_apart(const report::TensorGroup& g) {
  const report::Frame* pick = segment_line(g);
  return is_cublas_workspace(g) || reserved_by_backward(g, pick && !report::is_library_frame(*pick));
}
}  // namespace

std::string tensor_group_text(const report::TensorGroup& g) {
  const report::Frame* pick = segment_line(g);
  const bool programs_line = pick && !report::is_library_frame(*pick);
  const bool backward = reserved_by_backward(g, programs_line);
  // PyTorch reserves its cuBLAS workspace through its own allocator, so it
  // counts as allocated; it is no tensor of the program's, and the line that
  // first needed it keeps nothing.
  if (is_cublas_workspace(g))
    return format_bytes(g.bytes) +
           " in PyTorch's cuBLAS workspace (one per handle and stream, kept while they live; "
           "CUBLAS_WORKSPACE_CONFIG sets its size)" +
           (programs_line ? ", first needed by " + frame_line(*pick)
            : backward    ? ", first needed by the backward pass"
                          : "");
  const std::string tensors = format_bytes(g.bytes) + " in " + count_of(g.count, "tensor", "tensors");
  if (backward)
    return tensors +
           " in segments reserved by the backward pass (on autograd's own thread, which has no line of the program)";
  return tensors + " " + tensor_origin(g);
}

std::vector<report::Diagnosis> diagnose(const report::OomEvent& e) {
  std::vector<report::Diagnosis> out;
  const uint64_t total = e.total_bytes, request = e.request_bytes;
  const uint64_t noteworthy = total / 10;  // 10% of the device

  if (e.device_info && total && request > total)
    out.push_back({report::Cause::RequestTooLarge, request,
                   "the request (" + format_bytes(request) + ") is larger than the device's total memory (" +
                       format_bytes(total) + "): it can never succeed on this device"});

  std::vector<report::Diagnosis> after;  // told after every cause, whatever their bytes
  if (e.has_pytorch) diagnose_pytorch(e, out, after);
  if (e.has_jax) diagnose_jax(e, out);
  if (!e.has_pytorch && !e.has_jax && e.device_info && e.free_bytes >= request && request <= total)
    out.push_back({report::Cause::Fragmentation, e.free_bytes,
                   "free memory (" + format_bytes(e.free_bytes) + ") exceeds the request (" + format_bytes(request) +
                       "): the failure is likely fragmentation or a per-allocation limit"});

  uint64_t others = 0;
  for (const auto& o : e.other_processes) others += o.bytes_known ? o.bytes : 0;
  // Other processes are a cause when they hold much of the device, or when
  // without them the request would have fit, however little they hold.
  const bool decisive = e.device_info && e.free_bytes < request && e.free_bytes + others >= request;
  if (others && (others >= noteworthy || others >= request || decisive)) {
    std::vector<report::OtherProcessUsage> sorted = e.other_processes;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
    std::string who;
    for (size_t i = 0; i < sorted.size() && i < 2; ++i)
      who += (i ? ", " : "") + describe_other_process(sorted[i]) + " holds " + format_bytes(sorted[i].bytes);
    out.push_back(
        {report::Cause::OtherProcesses, others,
         (sorted.size() == 1 ? "another process holds " : std::to_string(sorted.size()) + " other processes hold ") +
             format_bytes(others) + " of the device: " + who +
             (decisive ? "; without them the request would fit" : "")});
  }

  // A caching allocator's segments are never a leak. PyTorch's, when its
  // view came with the event, are explained by the live tensors above; every
  // other allocator of the process (XLA's, CuPy's, a pool) is named with the
  // line it reserved for, and so is memory the program holds itself.
  // XLA's own pool and arrays are explained by JAX's view: of the sites, only
  // other frameworks' caches are told.
  const std::string explained = e.has_pytorch ? std::string(kPyTorchCache) : e.has_jax ? "XLA BFC allocator" : "";
  for (size_t i = 0; i < e.top_sites.size() && i < 3; ++i) {
    const report::OomSite& site = e.top_sites[i];
    const bool big = site.bytes >= noteworthy || site.bytes >= request;
    std::string cache = gate::caching_allocator_of(site.stack);
    if (!gate::keeps_freed_blocks(cache)) cache.clear();  // the program's own arrays
    if (e.has_jax && (cache.empty() || cache.starts_with("XLA"))) continue;
    if (!cache.empty()) {
      if (cache == explained || !big) continue;
      out.push_back({report::Cause::HeldByCache, site.bytes,
                     "the " + cache + " holds " + format_bytes(site.bytes) + " of " + kind_memory_words(site.kind) +
                         " memory in " + std::to_string(site.count) +
                         (site.kind == Kind::Async ? " stream-ordered allocation" : " segment") +
                         (site.count == 1 ? "" : "s") + " it reserved for " + site.where + "; " + cache_advice(cache)});
    } else if (site.count >= 3 && site.last_ns > site.first_ns &&
               (big || (e.device_info && e.free_bytes < request && e.free_bytes + site.bytes >= request))) {
      // Growth that holds little of the device is a cause only where the
      // request would have fit without it (NCCL's 240 MiB of buffers is not
      // why a 139 GiB request failed on an H200).
      out.push_back({report::Cause::AccumulatingLeak, site.bytes,
                     format_bytes(site.bytes) + " of " + kind_memory_words(site.kind) + " memory allocated in " +
                         site.where + " is still held from earlier: " + std::to_string(site.count) +
                         " allocations made between " + seconds(site.first_ns) + " and " + seconds(site.last_ns) +
                         " (about " + format_bytes(site.bytes / site.count) +
                         " each) and never released; it grows until the device is full"});
    } else if (big) {
      out.push_back({report::Cause::HeldByProcess, site.bytes,
                     "this process holds " + format_bytes(site.bytes) + " of " + kind_memory_words(site.kind) +
                         " memory allocated in " + site.where + " (" + std::to_string(site.count) +
                         (site.count == 1 ? " allocation)" : " allocations)")});
    }
  }

  // A limit the program raised holds memory nothing allocated: it explains
  // the failure where giving it back would make the request fit, or where it
  // is a real share of the device.
  for (const report::Reservation& v : e.reservations) {
    if (!v.bytes) continue;
    const bool explains = e.device_info && e.free_bytes < request && e.free_bytes + v.bytes >= request;
    if (!explains && v.bytes < noteworthy) continue;
    LimitWords w = limit_words(v.limit);
    std::string where = report::user_frame(v.stack) ? " in " + frame_line(*report::user_frame(v.stack)) : std::string();
    std::string msg = std::string(w.what == std::string("thread stacks") ? "the thread stack size" : w.what) +
                      " limit set" + where + " reserves " + format_bytes(v.bytes);
    if (v.limit == "stack_size" && v.threads)
      msg += " (" + format_bytes(v.value) + " per thread for each of the " + std::to_string(v.threads) +
             " threads the device can run at once)";
    msg += explains ? ", without it the request would fit" : "";
    msg += "; fix: " + std::string(w.fix) + " (" + w.name + " with cudaDeviceSetLimit)";
    out.push_back({report::Cause::ContextReservation, v.bytes, msg});
  }

  uint64_t cached = 0;
  for (const auto& p : e.pools) cached += p.reserved > p.used ? p.reserved - p.used : 0;
  if (cached && (cached >= request || cached >= noteworthy))
    out.push_back(
        {report::Cause::CachedInPools, cached,
         "stream-ordered memory pools keep " + format_bytes(cached) +
             " reserved but unused (cached); trim them (cudaMemPoolTrimTo) or lower their release threshold"});

  if (e.device_info && e.untracked_bytes >= noteworthy && e.untracked_bytes >= request / 2)
    out.push_back({report::Cause::Untracked, e.untracked_bytes,
                   format_bytes(e.untracked_bytes) +
                       " of used memory is held by nothing cudaleak tracked in this process " +
                       "or saw in others: CUDA contexts, loaded modules, library workspaces, or allocations made "
                       "before cudaleak"});

  std::stable_sort(out.begin(), out.end(), [](const report::Diagnosis& a, const report::Diagnosis& b) {
    return std::make_pair(weight(a.cause), a.bytes) > std::make_pair(weight(b.cause), b.bytes);
  });
  out.insert(out.end(), after.begin(), after.end());
  return out;
}

std::string describe_reservation(const report::Reservation& v) {
  LimitWords w = limit_words(v.limit);
  std::string s = v.bytes ? format_bytes(v.bytes) + " for " + w.what
                          : std::string(w.what) + " (size the driver does not say)";
  s += " (" + (*w.name ? std::string(w.name) : v.limit) + " = " + limit_value_text(v);
  if (v.limit == "stack_size" && v.threads) s += " per thread x " + std::to_string(v.threads) + " resident threads";
  s += ") on device " + std::to_string(v.device) + ", " + set_where(v);
  return s;
}

std::string describe_heap_exhausted(const report::Note& n, const std::vector<report::Reservation>& reservations) {
  std::string kernel = n.stack.empty() ? std::string("a kernel") : n.stack.front().function.str();
  std::string s = "device heap exhausted: " + std::to_string(n.count) +
                  (n.count == 1 ? " device-side malloc" : " device-side mallocs") + " in " + kernel + " returned NULL";
  if (n.stack.size() > 1) {
    // Above the device frame: the launch's stack, whose host side of the
    // kernel (a frame of the kernel's own name, nvcc's) is not the caller.
    std::vector<report::Frame> launch;
    for (auto f = n.stack.begin() + 1; f != n.stack.end(); ++f)
      if (f->function.str() != kernel) launch.push_back(*f);
    if (const report::Frame* f = report::user_frame(launch)) s += " (launched from " + frame_line(*f) + ")";
  }
  const report::Reservation* heap = nullptr;
  for (const report::Reservation& v : reservations)
    if (v.limit == "malloc_heap_size" && (v.context == n.handle || !heap)) heap = &v;
  if (heap)
    s += "; the device heap limit (cudaLimitMallocHeapSize) is " + format_bytes(heap->value) + ", " + set_where(*heap);
  else s += "; the device heap is at its default size, 8.0 MiB (cudaLimitMallocHeapSize was not set)";
  s += ": raise it with cudaDeviceSetLimit(cudaLimitMallocHeapSize, bytes) before the first kernel that allocates, "
       "or free device-side allocations (a leak there fills it)";
  return s;
}

}  // namespace cudaleak::oom
