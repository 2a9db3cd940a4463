#include "report/oom/diagnose.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "report/gate/caching.h"
#include "report/model/frame_owner.h"
#include "report/oom/diagnose_jax.h"

namespace cudaleak::oom {

using report::Cause;
using report::Diagnosis;
using report::DiagnosisForm;

constexpr const char* kPyTorchCache = "PyTorch caching allocator";  // gate/caching.cpp's name

namespace {

// Causes that decide the matter outright come first, then the rest by bytes.
int weight(Cause cause) {
  switch (cause) {
    case Cause::RequestTooLarge: return 3;
    case Cause::AllocatorLimit: return 2;
    case Cause::Fragmentation: return 1;
    default: return 0;
  }
}

bool has_function(const std::vector<report::Frame>& stack, std::string_view prefix) {
  return std::any_of(stack.begin(), stack.end(),
                     [&](const report::Frame& f) { return f.function.str().starts_with(prefix); });
}

// The live tensors of one line of the program that accumulated until the
// device was full: PyTorch's groups summed by the program's line (the tensors
// it recorded, and those in segments the line reserved, come as separate
// groups), the biggest line of three or more tensors holding at least half
// of what PyTorch allocated; count 0 when no line dominates.
struct LineTotal {
  uint64_t bytes = 0, count = 0;
  const report::TensorGroup* biggest = nullptr;  // its biggest group, which names it
};
LineTotal growing_line(const report::AllocatorDevice& p) {
  std::map<std::pair<std::string, int>, LineTotal> lines;
  for (const auto& g : p.live_tensors) {
    const report::Frame* f = is_cublas_workspace(g) ? nullptr : report::user_frame(g.stack);
    if (!f) continue;
    LineTotal& line = lines[{f->file.str(), f->line}];
    line.bytes += g.bytes;
    line.count += g.count;
    if (!line.biggest || g.bytes > line.biggest->bytes) line.biggest = &g;
  }
  LineTotal best;
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
// fail a few steps later. Either way the sentence says how many steps
// (tensors of the growing line) and, where the reservations' pace is known,
// how long.
void diagnose_fragmentation(const report::OomEvent& e, std::vector<Diagnosis>& out, std::vector<Diagnosis>& after) {
  const report::AllocatorDevice& p = e.pytorch;
  const uint64_t request = e.request_bytes;
  const uint64_t device_free = e.device_info ? e.free_bytes : 0;
  // A few MiB in pinned segments beside a full device is not fragmentation.
  if (!(device_free < request && p.free + device_free >= request && p.largest_free_block < request &&
        p.free_in_pinned_segments * 4 >= request))
    return;
  const uint64_t stuck = p.free_in_pinned_segments;
  const bool real_share = stuck * 20 >= p.reserved;  // 5% of the reservation
  const LineTotal grower = growing_line(p);
  const uint64_t each = grower.count ? std::max<uint64_t>(1, grower.bytes / grower.count) : 0;
  const uint64_t steps_left = grower.count ? stuck / each : 0;
  const bool growth_explains = grower.count && steps_left <= grower.count;
  Diagnosis d{Cause::Fragmentation, p.free + device_free, ""};
  if (real_share && !growth_explains) {
    d.form = DiagnosisForm::PyTorch;
    for (size_t i = 0; i < p.live_tensors.size(); ++i)
      if (p.live_tensors[i].pinning_segments) d.groups.push_back(int(i));
    out.push_back(d);
    return;
  }
  d.form = DiagnosisForm::PyTorchNoted;
  if (grower.count) {
    const double rate = reserve_rate(e);
    d.growing = {int(grower.biggest - p.live_tensors.data()), grower.count, each, steps_left,
                 rate > 0 ? uint64_t(double(stuck) / rate * 1e9) : 0};
  }
  after.push_back(d);
}

// PyTorch's view explains its own out-of-memory: the limit it set itself,
// fragmentation of its cache, the live tensors, or cache it still keeps.
void diagnose_pytorch(const report::OomEvent& e, std::vector<Diagnosis>& out, std::vector<Diagnosis>& after) {
  const report::AllocatorDevice& p = e.pytorch;
  const uint64_t request = e.request_bytes;
  const uint64_t device_free = e.device_info ? e.free_bytes : 0;
  if (e.device_info && device_free >= request) out.push_back({Cause::AllocatorLimit, device_free, ""});
  diagnose_fragmentation(e, out, after);
  if (p.allocated && !p.live_tensors.empty()) {
    Diagnosis d{Cause::LiveTensors, p.allocated, ""};
    d.form = DiagnosisForm::PyTorch;
    for (size_t i = 0; i < p.live_tensors.size(); ++i) d.groups.push_back(int(i));
    d.accumulates = p.live_tensors.front().count >= 3 && !p.live_tensors.front().stack.empty();
    out.push_back(d);
  }
  uint64_t unpinned = p.free > p.free_in_pinned_segments ? p.free - p.free_in_pinned_segments : 0;
  if (unpinned >= request) out.push_back({Cause::CachedFree, unpinned, ""});
}

// Other processes are a cause when they hold much of the device, or when
// without them the request would have fit, however little they hold.
void diagnose_other_processes(const report::OomEvent& e, std::vector<Diagnosis>& out) {
  uint64_t others = 0;
  for (const auto& o : e.other_processes) others += o.bytes_known ? o.bytes : 0;
  const bool decisive = e.device_info && e.free_bytes < e.request_bytes && e.free_bytes + others >= e.request_bytes;
  if (!others || (others < e.total_bytes / 10 && others < e.request_bytes && !decisive)) return;
  std::vector<int> biggest(e.other_processes.size());
  for (size_t i = 0; i < biggest.size(); ++i) biggest[i] = int(i);
  std::sort(biggest.begin(), biggest.end(),
            [&](int a, int b) { return e.other_processes[a].bytes > e.other_processes[b].bytes; });
  biggest.resize(std::min<size_t>(biggest.size(), 2));
  Diagnosis d{Cause::OtherProcesses, others, ""};
  d.decisive = decisive;
  d.processes = biggest;
  out.push_back(d);
}

// A caching allocator's segments are never a leak. PyTorch's, when its
// view came with the event, are explained by the live tensors; every other
// allocator of the process (XLA's, CuPy's, a pool) is named with the line
// it reserved for, and so is memory the program holds itself. XLA's own pool
// and arrays are explained by JAX's view: of the sites, only other
// frameworks' caches are told.
void diagnose_sites(const report::OomEvent& e, std::vector<Diagnosis>& out) {
  const uint64_t request = e.request_bytes, noteworthy = e.total_bytes / 10;
  // A framework's allocator that refused a request the device had room for
  // failed under its own limit (a memory fraction, XLA's pool): memory held
  // elsewhere on the device is no cause of it (NCCL's buffers made at
  // start-up are not why an FSDP rank ran out of its fraction).
  if ((e.has_pytorch || e.has_jax) && e.device_info && e.free_bytes >= request) return;
  const std::string explained = e.has_pytorch ? std::string(kPyTorchCache) : e.has_jax ? "XLA BFC allocator" : "";
  for (size_t i = 0; i < e.top_sites.size() && i < 3; ++i) {
    const report::OomSite& site = e.top_sites[i];
    const bool big = site.bytes >= noteworthy || site.bytes >= request;
    std::string cache = gate::caching_allocator_of(site.stack);
    if (!gate::keeps_freed_blocks(cache)) cache.clear();  // the program's own arrays
    if (e.has_jax && (cache.empty() || cache.starts_with("XLA"))) continue;
    Diagnosis d{Cause::HeldByProcess, site.bytes, ""};
    d.site = int(i);
    if (!cache.empty()) {
      if (cache == explained || !big) continue;
      d.cause = Cause::HeldByCache;
      d.allocator = cache;
    } else if (site.count >= 3 && site.last_ns > site.first_ns &&
               (big || (e.device_info && e.free_bytes < request && e.free_bytes + site.bytes >= request))) {
      // Growth that holds little of the device is a cause only where the
      // request would have fit without it (NCCL's 240 MiB of buffers is not
      // why a 139 GiB request failed on an H200).
      d.cause = Cause::AccumulatingLeak;
    } else if (!big) {
      continue;
    }
    out.push_back(d);
  }
}

// A limit the program raised holds memory nothing allocated: it explains
// the failure where giving it back would make the request fit, or where it
// is a real share of the device.
void diagnose_reservations(const report::OomEvent& e, std::vector<Diagnosis>& out) {
  for (size_t i = 0; i < e.reservations.size(); ++i) {
    const report::Reservation& v = e.reservations[i];
    if (!v.bytes) continue;
    const bool explains = e.device_info && e.free_bytes < e.request_bytes && e.free_bytes + v.bytes >= e.request_bytes;
    if (!explains && v.bytes < e.total_bytes / 10) continue;
    Diagnosis d{Cause::ContextReservation, v.bytes, ""};
    d.reservation = int(i);
    d.decisive = explains;
    out.push_back(d);
  }
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

bool reserved_by_backward(const report::TensorGroup& g, bool programs_line) {
  return g.by_segment && !programs_line && has_function(g.stack, "torch::autograd::Engine::thread_main");
}

std::string backward_node(const std::vector<report::Frame>& stack) {
  if (!report::user_frames(stack).empty() || !has_function(stack, "torch::autograd::Engine::thread_main")) return "";
  constexpr std::string_view generated = "torch::autograd::generated::";
  for (const report::Frame& f : stack) {
    if (!f.function.starts_with(generated)) continue;
    // "PowBackward0::apply(...)" or "PowBackward0_apply_functional(...)": the node's name.
    const std::string name = f.function.substr(generated.size());
    const size_t at = name.find("Backward");
    if (at == std::string::npos || name.find_first_of(":(") < at) continue;
    size_t end = at + std::string_view("Backward").size();
    while (end < name.size() && name[end] >= '0' && name[end] <= '9') ++end;
    return name.substr(0, end);
  }
  return "autograd";
}

std::vector<Diagnosis> diagnose(const report::OomEvent& e) {
  std::vector<Diagnosis> out;
  const uint64_t total = e.total_bytes, request = e.request_bytes;
  const uint64_t noteworthy = total / 10;  // 10% of the device

  if (e.device_info && total && request > total) out.push_back({Cause::RequestTooLarge, request, ""});

  std::vector<Diagnosis> after;  // told after every cause, whatever their bytes
  if (e.has_pytorch) diagnose_pytorch(e, out, after);
  if (e.has_jax) diagnose_jax(e, out);
  if (!e.has_pytorch && !e.has_jax && e.device_info && e.free_bytes >= request && request <= total)
    out.push_back({Cause::Fragmentation, e.free_bytes, ""});
  diagnose_other_processes(e, out);
  diagnose_sites(e, out);
  diagnose_reservations(e, out);

  uint64_t cached = 0;
  for (const auto& p : e.pools) cached += p.reserved > p.used ? p.reserved - p.used : 0;
  if (cached && (cached >= request || cached >= noteworthy)) out.push_back({Cause::CachedInPools, cached, ""});

  if (e.device_info && e.untracked_bytes >= noteworthy && e.untracked_bytes >= request / 2)
    out.push_back({Cause::Untracked, e.untracked_bytes, ""});

  std::stable_sort(out.begin(), out.end(), [](const Diagnosis& a, const Diagnosis& b) {
    return std::make_pair(weight(a.cause), a.bytes) > std::make_pair(weight(b.cause), b.bytes);
  });
  out.insert(out.end(), after.begin(), after.end());
  return out;
}

}  // namespace cudaleak::oom
