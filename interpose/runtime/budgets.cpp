// Memory budgets behind include/cudaleak.h (cudaleak_peak_begin and
// cudaleak_peak_read): the highest device memory of a window of the run (a
// test), and the sites that made it once it passed the window's limit. The
// tracker keeps the numbers on the path it already runs (Timeline::begin_window);
// the sites are named here, only when asked.
#include <cerrno>
#include <cstdio>
#include <string>

#include "common/quantities.h"
#include "interpose/base/state.h"
#include "interpose/runtime/budgets.h"
#include "interpose/include/cudaleak.h"
#include "interpose/runtime/frame_resolver.h"
#include "interpose/runtime/initialize.h"
#include "interpose/runtime/runtime.h"
#include "interpose/track/tracker.h"
#include "report/write/in_process.h"

namespace cudaleak {
namespace {

// The device whose peak rose most above its start.
const Timeline::WindowPeak* highest(const std::vector<Timeline::WindowPeak>& peaks) {
  const Timeline::WindowPeak* best = nullptr;
  for (const Timeline::WindowPeak& w : peaks)
    if (!best || w.peak - w.start > best->peak - best->start) best = &w;
  return best;
}

void describe_grown(const Timeline::WindowPeak& w, cudaleak_peak& out, char* message, unsigned long size) {
  tracker::StacksHeld held;  // until the sites' stacks are resolved
  std::unique_ptr<report::FrameResolver> resolver = make_frame_resolver();
  report::Printing printing;
  printing.max_groups = size_t(options().summary_groups);
  printing.full_stacks = options().full_stacks;
  report::GrownSites sites = report::describe_grown(w.grown, w.device, tracker::held_stack, resolver.get(), printing);
  if (!sites.file.empty()) {
    std::snprintf(out.file, sizeof out.file, "%s", sites.file.c_str());
    out.line = sites.line;
  }
  if (message && size) std::snprintf(message, size, "%s", sites.text.c_str());
}

}  // namespace

std::string memory_budget_failure() {
  const int64_t limit = options().limit_memory;
  if (limit <= 0) return "";
  std::vector<Timeline::WindowPeak> peaks = tracker::window_peaks();
  const Timeline::WindowPeak* w = highest(peaks);
  if (!w || w->peak - w->start <= uint64_t(limit)) return "";
  cudaleak_peak peak{};
  std::string sites(65536, '\0');
  describe_grown(*w, peak, sites.data(), sites.size());
  sites.resize(sites.find('\0'));
  std::string text = "device memory peaked at " + format_bytes(w->peak - w->start) + " above the start on device " +
                     std::to_string(w->device) + ", over the budget of " + format_bytes(uint64_t(limit)) +
                     " (limit_memory)";
  if (peak.file[0]) text += " at " + std::string(peak.file) + ":" + std::to_string(peak.line);
  return text + (sites.empty() ? "\n" : "; the sites that grew most:\n" + sites);
}

}  // namespace cudaleak

extern "C" __attribute__((visibility("default"))) int cudaleak_impl_peak_begin(unsigned long long limit_bytes) {
  cudaleak::ensure_initialized();
  cudaleak::tracker::begin_window(limit_bytes);
  return 0;
}

extern "C" __attribute__((visibility("default"))) int cudaleak_impl_peak_read(cudaleak_peak* out, char* message,
                                                                              unsigned long size) {
  if (!out) return -1;
  *out = cudaleak_peak{};
  out->device = -1;
  if (message && size) message[0] = '\0';
  int saved = errno;
  try {
    std::vector<cudaleak::Timeline::WindowPeak> peaks = cudaleak::tracker::window_peaks();
    if (const cudaleak::Timeline::WindowPeak* w = cudaleak::highest(peaks)) {
      out->bytes = w->peak - w->start;
      out->start = w->start;
      out->device = w->device;
      if (!w->grown.empty()) cudaleak::describe_grown(*w, *out, message, size);
    }
  } catch (...) {
    cudaleak::internal_failure("reading a memory budget's peak");
  }
  errno = saved;
  return 0;
}
