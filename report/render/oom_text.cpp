#include "report/render/oom_text.h"

#include "common/quantities.h"
#include "report/model/frame_owner.h"
#include "report/gate/caching.h"
#include "report/model/place_name.h"
#include "report/oom/diagnose.h"
#include "report/render/cause_words.h"
#include "report/render/jax_words.h"

namespace cudaleak::render {

namespace {
// What the allocator did before it tried again, as its failed call's stack
// tells: a cache freed, or (numba's) the frees it had deferred made.
std::string retry_cause(const report::OomAttempt& failed) {
  const std::string allocator = gate::caching_allocator_of(failed.stack);
  if (!allocator.empty() && !gate::keeps_freed_blocks(allocator))
    return "the " + allocator + " made the frees it had deferred";
  return "the allocator freed its cache";
}
}  // namespace

std::string render_event(const report::OomEvent& e) {
  std::string out;
  const std::string head = e.rank >= 0 ? "out of memory on rank " + std::to_string(e.rank) + ": " : "out of memory: ";
  if (e.has_jax) {
    out = head + "JAX (XLA) could not allocate " + format_bytes(e.request_bytes) + " on device " +
          std::to_string(e.device);
  } else if (e.has_pytorch) {
    out = head + "PyTorch could not allocate " + format_bytes(e.request_bytes) + " on device " +
          std::to_string(e.device);
  } else {
    out = head + e.api + " of " + format_bytes(e.request_bytes) + " on device " + std::to_string(e.device) + " failed";
  }
  const std::string backward = oom::backward_node(e.stack);
  if (!backward.empty())
    out += " in the backward pass (" + (backward == "autograd" ? "" : backward + " ") + "on autograd's thread)";
  else if (const report::Frame* f = report::user_frame(e.stack)) out += " in " + report::frame_line(*f);
  if (e.device_info) out += " (free " + format_bytes(e.free_bytes) + " of " + format_bytes(e.total_bytes) + ")";
  out += " at " + format_duration(e.time_ns) + "\n";
  // The failed calls before it; under JAX also the same failure raised
  // again, which is this one.
  std::vector<const report::OomAttempt*> calls;
  for (const report::OomAttempt& a : e.attempts)
    if (!e.has_jax || a.api != e.api) calls.push_back(&a);
  if (!calls.empty()) {
    const report::OomAttempt& a = *calls.front();
    out += "  Before it, " + std::to_string(calls.size()) + (calls.size() == 1 ? " call" : " calls") + " (" + a.api +
           " of " + format_bytes(a.request_bytes) + ", from " + format_duration(a.time_ns) + ") failed and " +
           (calls.size() == 1 ? "was" : "were") + " retried after " + retry_cause(a) + " (attempts in the report).\n";
  }
  if (e.has_jax && e.jax.raised > 1)
    out += "  XLA raised it " + std::to_string(e.jax.raised) +
           " times within 10 s (the same failure, retried or raised again): one failure.\n";
  if (e.diagnosis.empty()) {
    out += "  No single cause stands out; the numbers are in the report.\n";
  } else {
    out += "  Likely causes, most likely first:\n";
    for (size_t i = 0; i < e.diagnosis.size(); ++i)
      out += "  " + std::to_string(i + 1) + ". " + cause_text(e, e.diagnosis[i]) + "\n";
  }
  uint64_t others = 0;
  for (const auto& o : e.other_processes) others += o.bytes_known ? o.bytes : 0;
  out += "  This process: " + format_bytes(e.tracked_bytes) + " tracked (" + format_bytes(e.recent_bytes) +
         " allocated in the last " + format_duration(e.recent_window_ns) + ", " + format_bytes(e.old_bytes) +
         " before); other processes: " + (e.nvml == "ok" ? format_bytes(others) : "unknown (" + e.nvml + ")") +
         "; untracked: " + format_bytes(e.untracked_bytes) + ".\n";
  if (e.has_jax)
    out += "  JAX on device " + std::to_string(e.jax.device.device) + ": " + jax_pool_text(e.jax.device) +
           "; raised as " + e.jax.exception + ".\n";
  if (e.has_pytorch)
    out += "  PyTorch: " + format_bytes(e.pytorch.reserved) + " reserved, " + format_bytes(e.pytorch.allocated) +
           " allocated, largest free block " + format_bytes(e.pytorch.largest_free_block) + ".\n";
  return out;
}

}  // namespace cudaleak::render
