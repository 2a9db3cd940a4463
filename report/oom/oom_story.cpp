#include "report/oom/oom_story.h"

#include "report/gate/caching.h"

namespace cudaleak::oom {

report::OomAttempt attempt_of(const report::OomEvent& failed) {
  report::OomAttempt a;
  a.time_ns = failed.time_ns;
  a.api = failed.api;
  a.request_bytes = failed.request_bytes;
  a.device_info = failed.device_info;
  a.free_bytes = failed.free_bytes;
  a.stack = failed.stack;
  return a;
}

bool is_attempt(const report::OomEvent& failed, const std::string& failed_cache, const report::OomEvent& later,
                const std::string& later_cache) {
  const uint64_t window = later.has_jax ? kRetryWindowNs + kXlaWaitNs : kRetryWindowNs;
  if (failed.has_pytorch || failed.has_jax || failed.device != later.device || later.time_ns < failed.time_ns ||
      later.time_ns - failed.time_ns > window)
    return false;
  if (later.has_pytorch) return failed_cache.empty() || failed_cache == "PyTorch caching allocator";
  // XLA's BFC allocator growing its pool, or its platform allocator.
  if (later.has_jax) return failed_cache.empty() || failed_cache.starts_with("XLA");
  return !failed_cache.empty() && failed_cache == later_cache && failed.request_bytes == later.request_bytes;
}

void fold_attempts(std::vector<report::OomEvent>& events) {
  std::vector<report::OomEvent> out;
  for (report::OomEvent& e : events) {
    if (e.has_pytorch) {
      std::vector<report::OomAttempt> attempts;
      while (!out.empty() && out.back().pid == e.pid &&
             is_attempt(out.back(), gate::caching_allocator_of(out.back().stack), e, "")) {
        attempts.insert(attempts.begin(), attempt_of(out.back()));
        out.pop_back();
      }
      e.attempts.insert(e.attempts.begin(), attempts.begin(), attempts.end());
    }
    out.push_back(std::move(e));
  }
  events = std::move(out);
}

}  // namespace cudaleak::oom
