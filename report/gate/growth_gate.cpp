#include "report/gate/growth_gate.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "common/quantities.h"
#include "report/gate/caching.h"
#include "report/gate/gate_config.h"
#include "report/gate/site.h"
#include "report/model/site_growth.h"

namespace cudaleak::gate {

std::string parse_growth_threshold(const std::string& text, GrowthThreshold& out) {
  out = {};
  if (text.empty()) return "";
  std::string amount = text;
  if (const auto slash = text.find('/'); slash != std::string::npos) {
    const std::string unit = text.substr(slash + 1);
    if (unit != "min" && unit != "m" && unit != "minute") return "'" + text + "': the rate is per minute: BYTES/min";
    out.per_minute = true;
    amount = text.substr(0, slash);
  }
  char* end = nullptr;
  const unsigned long long number = std::strtoull(amount.c_str(), &end, 10);
  if (end == amount.c_str() || amount[0] == '-') return "'" + text + "' does not begin with a number of bytes";
  std::string suffix(end);
  for (char& c : suffix) c = char(std::tolower(static_cast<unsigned char>(c)));
  uint64_t scale = 1;
  if (suffix == "k" || suffix == "kib" || suffix == "kb") scale = 1ull << 10;
  else if (suffix == "m" || suffix == "mib" || suffix == "mb") scale = 1ull << 20;
  else if (suffix == "g" || suffix == "gib" || suffix == "gb") scale = 1ull << 30;
  else if (!suffix.empty() && suffix != "b")
    return "'" + text + "': unknown unit '" + std::string(end) + "' (K, M, G, KiB, MiB, GiB)";
  if (number == 0) return "'" + text + "': the threshold must be more than 0";
  if (number > UINT64_MAX / scale) return "'" + text + "' is too large";
  out.bytes = number * scale;
  return "";
}

namespace {
// The site as a leak group, for the rules and the baseline, which name groups.
report::LeakGroup as_group(const report::SiteGrowth& g) {
  report::LeakGroup group;
  group.kind = g.kind;
  group.api = g.api;
  group.bytes = g.bytes;
  group.stack = g.stack;
  return group;
}
}  // namespace

namespace {
// The caching allocator whose memory a framework view's lines account for:
// the tensors or arrays of a line live in that allocator's segments, so the
// allocator's own site grows with them.
const char* allocator_of_view(const std::string& view) {
  if (view == "pytorch") return "PyTorch caching allocator";
  if (view == "jax") return "XLA BFC allocator";
  if (view == "cupy") return "CuPy memory pool";
  return "";
}

// Whether `g` grew past the threshold, is not suppressed and not in the
// baseline: then it counts. Fills the site, suppressed_by and baseline.
bool counts(report::SiteGrowth& g, const report::Report& report, const GateConfig& config) {
  g.fails_gate = false;
  if (!g.steady) return false;
  const double risen = config.fail_on_growth.per_minute ? report::rise_per_minute(g) : double(report::rise_bytes(g));
  if (risen < double(config.fail_on_growth.bytes)) return false;
  report::LeakGroup group = as_group(g);
  g.site = site_of(group, report.modules);
  group.site = g.site;
  if (size_t rule = config.rules.first_match(group); rule != config.rules.size()) {
    g.suppressed_by = std::string(config.rules.text(rule)) + " (" + config.rules.source(rule) + ")";
    return false;
  }
  if (config.baseline) {
    g.baseline = compare_with_baseline(*config.baseline, group);
    if (g.baseline != report::BaselineState::New) return false;
  }
  return true;
}

void count(report::SiteGrowth& g, report::GateResult& result) {
  g.fails_gate = true;
  ++result.failing_groups;
  ++result.failing_growth_sites;
  add_saturating(result.failing_bytes, report::rise_bytes(g));
}
}  // namespace

void judge_growth(report::Report& report, const GateConfig& config, report::GateResult& result) {
  if (!config.fail_on_growth.bytes) return;
  for (report::DeviceTimeline& d : report.timeline.devices) {
    // A framework's lines first: where one of them counts, the growth of its
    // allocator's own site on the device is the same memory and is not
    // counted a second time (the line names the program's code).
    std::vector<std::string> counted_allocators;
    for (report::SiteGrowth& g : d.growth)
      if (!g.view.empty() && counts(g, report, config)) {
        count(g, result);
        counted_allocators.emplace_back(allocator_of_view(g.view));
      }
    for (report::SiteGrowth& g : d.growth) {
      if (!g.view.empty() || !counts(g, report, config)) continue;
      const std::string allocator = caching_allocator_of(g.stack);
      if (!allocator.empty() &&
          std::find(counted_allocators.begin(), counted_allocators.end(), allocator) != counted_allocators.end())
        continue;
      count(g, result);
    }
  }
}

}  // namespace cudaleak::gate
