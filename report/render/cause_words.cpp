#include "report/render/cause_words.h"

#include <cstdio>

#include "common/kinds.h"
#include "common/quantities.h"
#include "report/render/jax_words.h"
#include "report/render/limit_words.h"
#include "report/render/tensor_words.h"

namespace cudaleak::render {

using report::Cause;
using report::DiagnosisForm;

namespace {

// A moment of the process's life, as the text says it everywhere.
std::string seconds(uint64_t ns) { return format_duration(ns); }

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

template <class T>
const T* entry(const std::vector<T>& list, int index) {
  return index >= 0 && size_t(index) < list.size() ? &list[size_t(index)] : nullptr;
}

std::string pytorch_fragmentation_text(const report::OomEvent& e, const report::Diagnosis& d) {
  const report::AllocatorDevice& p = e.pytorch;
  const uint64_t stuck = p.free_in_pinned_segments;
  std::string msg = "fragmentation: PyTorch has " + format_bytes(p.reserved) + " reserved but only " +
                    format_bytes(p.allocated) + " allocated; " + format_bytes(stuck) + " is free inside " +
                    std::to_string(p.pinned_segments) + " segments that live tensors keep, in pieces no larger than " +
                    format_bytes(p.largest_free_block) + ", so the " + format_bytes(e.request_bytes) +
                    " request fits in none";
  if (d.form == DiagnosisForm::PyTorch) {
    std::vector<const report::TensorGroup*> pinning;
    for (int i : d.groups)
      if (const report::TensorGroup* g = entry(p.live_tensors, i)) pinning.push_back(g);
    if (!pinning.empty()) msg += ". The tensors that pin them: " + tensor_groups_text(pinning);
    return msg + (p.expandable
                      ? ". Free or reorder those tensors"
                      : ". Fix: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, or free or reorder those tensors");
  }
  char share[32];
  std::snprintf(share, sizeof share, "%.1f%%", p.reserved ? 100.0 * double(stuck) / double(p.reserved) : 0.0);
  msg += " (" + std::string(share) + " of the reservation); it is not why memory ran out";
  const report::GrowingLine& line = d.growing;
  if (const report::TensorGroup* biggest = entry(p.live_tensors, line.group)) {
    msg += ": at about " + format_bytes(line.each) + " a tensor, that space holds " + std::to_string(line.steps_left) +
           " more of the tensors " + tensor_origin(*biggest) + " (" + std::to_string(line.count) + " so far)";
    if (line.growth_ns) msg += ", about " + seconds(line.growth_ns) + " of its growth";
    msg += "; expandable_segments would only delay the failure";
  }
  return msg;
}

std::string live_tensors_text(const report::OomEvent& e, const report::Diagnosis& d) {
  const report::AllocatorDevice& p = e.pytorch;
  std::vector<const report::TensorGroup*> groups;
  for (int i : d.groups)
    if (const report::TensorGroup* g = entry(p.live_tensors, i)) groups.push_back(g);
  return held_by_live_tensors(p.allocated, p.live_tensors, "is held") + ": " + tensor_groups_text(groups) +
         (d.accumulates ? "; tensors from one line that stay alive accumulate (kept in a "
                          "list, a traceback, or a closure)"
                        : "");
}

std::string other_processes_text(const report::OomEvent& e, const report::Diagnosis& d) {
  std::string who;
  for (size_t i = 0; i < d.processes.size(); ++i)
    if (const report::OtherProcessUsage* o = entry(e.other_processes, d.processes[i]))
      who += (i ? ", " : "") + describe_other_process(*o) + " holds " + format_bytes(o->bytes);
  const size_t n = e.other_processes.size();
  return (n == 1 ? "another process holds " : std::to_string(n) + " other processes hold ") + format_bytes(d.bytes) +
         " of the device: " + who + (d.decisive ? "; without them the request would fit" : "");
}

// A site of the process's own memory: a caching allocator's, a line that
// kept allocating, or one that holds much of the device.
std::string site_text(const report::OomSite& site, const report::Diagnosis& d) {
  const std::string memory = " of " + kind_memory_words(site.kind) + " memory ";
  if (d.cause == Cause::HeldByCache)
    return "the " + d.allocator + " holds " + format_bytes(site.bytes) + memory + "in " + std::to_string(site.count) +
           (site.kind == Kind::Async ? " stream-ordered allocation" : " segment") + (site.count == 1 ? "" : "s") +
           " it reserved for " + site.where + "; " + cache_advice(d.allocator);
  if (d.cause == Cause::AccumulatingLeak)
    return format_bytes(site.bytes) + memory + "allocated in " + site.where +
           " is still held from earlier: " + std::to_string(site.count) + " allocations made between " +
           seconds(site.first_ns) + " and " + seconds(site.last_ns) + " (about " +
           format_bytes(site.bytes / site.count) + " each) and never released; it grows until the device is full";
  return "this process holds " + format_bytes(site.bytes) + memory + "allocated in " + site.where + " (" +
         std::to_string(site.count) + (site.count == 1 ? " allocation)" : " allocations)");
}

std::string device_text(const report::OomEvent& e, const report::Diagnosis& d) {
  const std::string request = format_bytes(e.request_bytes);
  switch (d.cause) {
    case Cause::RequestTooLarge:
      return "the request (" + request + ") is larger than the device's total memory (" + format_bytes(e.total_bytes) +
             "): it can never succeed on this device";
    case Cause::AllocatorLimit:
      return "the device has " + format_bytes(d.bytes) + " free, more than the request (" + request +
             "): PyTorch refused it itself, under a limit the program set "
             "(torch.cuda.set_per_process_memory_fraction) or an allocator setting";
    case Cause::Fragmentation:
      return "free memory (" + format_bytes(d.bytes) + ") exceeds the request (" + request +
             "): the failure is likely fragmentation or a per-allocation limit";
    case Cause::CachedFree:
      return "PyTorch keeps " + format_bytes(d.bytes) +
             " cached in segments with no live tensor; "
             "torch.cuda.empty_cache() returns it";
    case Cause::CachedInPools:
      return "stream-ordered memory pools keep " + format_bytes(d.bytes) +
             " reserved but unused (cached); trim them (cudaMemPoolTrimTo) or lower their release threshold";
    case Cause::Untracked:
      return format_bytes(d.bytes) + " of used memory is held by nothing cudaleak tracked in this process " +
             "or saw in others: CUDA contexts, loaded modules, library workspaces, or allocations made "
             "before cudaleak";
    default: return "";
  }
}

}  // namespace

std::string describe_other_process(const report::OtherProcessUsage& o) {
  std::string inside = o.rank >= 0 ? "rank " + std::to_string(o.rank) : "";
  if (!o.name.empty()) inside += (inside.empty() ? "" : ", ") + o.name;
  return "pid " + std::to_string(o.pid) + (inside.empty() ? "" : " (" + inside + ")");
}

std::string cause_text(const report::OomEvent& e, const report::Diagnosis& d) {
  if (!d.message.empty()) return d.message;
  if (d.form == DiagnosisForm::Jax || d.form == DiagnosisForm::JaxRequestOverPool || d.cause == Cause::PoolLimit ||
      d.cause == Cause::CompiledPeak)
    return jax_cause_text(e, d);
  if (d.form == DiagnosisForm::PyTorch || d.form == DiagnosisForm::PyTorchNoted)
    return d.cause == Cause::LiveTensors ? live_tensors_text(e, d) : pytorch_fragmentation_text(e, d);
  switch (d.cause) {
    case Cause::OtherProcesses: return other_processes_text(e, d);
    case Cause::HeldByCache:
    case Cause::AccumulatingLeak:
    case Cause::HeldByProcess: {
      const report::OomSite* site = entry(e.top_sites, d.site);
      return site ? site_text(*site, d) : "";
    }
    case Cause::ContextReservation: {
      const report::Reservation* v = entry(e.reservations, d.reservation);
      return v ? reservation_cause_text(*v, d.decisive) : "";
    }
    default: return device_text(e, d);
  }
}

void say_causes(report::OomEvent& e) {
  for (report::Diagnosis& d : e.diagnosis) d.message = cause_text(e, d);
}

}  // namespace cudaleak::render
