#include "report/render/growth_text.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "common/kinds.h"
#include "common/quantities.h"
#include "report/model/site_growth.h"
#include "report/render/stack_text.h"

namespace cudaleak::render {

using namespace report;  // the model this renderer reads


std::vector<GrowingSite> growing_sites(const Report& r) {
  std::vector<GrowingSite> out;
  for (const DeviceTimeline& d : r.timeline.devices)
    for (const SiteGrowth& g : d.growth)
      if (g.steady) out.push_back({&g, &d});
  std::stable_sort(out.begin(), out.end(), [](const GrowingSite& a, const GrowingSite& b) {
    return rise_bytes(*a.site) > rise_bytes(*b.site);
  });
  return out;
}

std::string rise_length(uint64_t ns) {
  const uint64_t s = (ns + 500'000'000) / 1'000'000'000;
  char buf[48];
  if (s < 60) std::snprintf(buf, sizeof buf, "%" PRIu64 " s", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%" PRIu64 " min %02" PRIu64 " s", s / 60, s % 60);
  else if (s < 86400) std::snprintf(buf, sizeof buf, "%" PRIu64 " h %" PRIu64 " min", s / 3600, s % 3600 / 60);
  else std::snprintf(buf, sizeof buf, "%" PRIu64 " d %" PRIu64 " h", s / 86400, s % 86400 / 3600);
  return buf;
}

std::string rise_rates(const SiteGrowth& g) {
  std::string out = "+" + format_bytes(uint64_t(rise_per_minute(g))) + " per minute";
  if (g.rise_requests)
    out = "+" + format_bytes(uint64_t(double(rise_bytes(g)) * 1000.0 / double(g.rise_requests))) +
          " per 1,000 requests, " + out;
  return out;
}

std::string rise_words(const SiteGrowth& g) {
  return "grew steadily for " + rise_length(rise_duration_ns(g)) + ", +" + format_bytes(rise_bytes(g)) + " (" +
         rise_rates(g) + "), never fell";
}

std::string view_words(const std::string& view) {
  if (view == "pytorch") return "PyTorch's live tensors";
  if (view == "jax") return "JAX's live arrays";
  if (view == "cupy") return "CuPy's memory pool in use";
  return view;
}

std::string site_words(const SiteGrowth& g) {
  std::string out = format_bytes(g.bytes) + " of " +
                    (g.view.empty() ? text_of(g.kind) + " memory" : view_words(g.view));
  if (!g.api.empty()) out += " by " + g.api;
  if (!g.where.empty()) out += " at " + g.where;
  return out;
}

std::string sparkline(const std::vector<uint64_t>& values, size_t width) {
  static const char* const kBlocks[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  if (values.empty() || width == 0) return "";
  // Each column the lowest of the values it covers, as the history's spans merge.
  std::vector<uint64_t> columns;
  const size_t n = std::min(width, values.size());
  for (size_t c = 0; c < n; ++c) {
    const size_t from = c * values.size() / n, to = std::max(from + 1, (c + 1) * values.size() / n);
    columns.push_back(*std::min_element(values.begin() + long(from), values.begin() + long(to)));
  }
  const auto [lo, hi] = std::minmax_element(columns.begin(), columns.end());
  std::string out;
  for (uint64_t v : columns) out += kBlocks[*hi == *lo ? 0 : size_t(double(v - *lo) * 7.0 / double(*hi - *lo) + 0.5)];
  return out;
}

std::string render_growth(const Report& r, const TextOptions& options) {
  const std::vector<GrowingSite> sites = growing_sites(r);
  if (sites.empty()) return "";
  const size_t lines = size_t(
      std::count_if(sites.begin(), sites.end(), [](const GrowingSite& s) { return !s.site->view.empty(); }));
  std::string counted = lines == 0              ? count_of(sites.size(), "site", "sites")
                        : lines == sites.size() ? count_of(lines, "line of the program", "lines of the program")
                                                : count_of(sites.size() - lines, "site", "sites") + " and " +
                                                      count_of(lines, "line of the program", "lines of the program");
  std::string out = "\n" + counted +
                    " grew steadily (live bytes whose lowest rose span after span and never fell; growth in the "
                    "report's timeline):\n";
  size_t shown = 0;
  for (const GrowingSite& s : sites) {
    if (options.max_groups && shown++ == options.max_groups) {
      out += "\n... " + count_of(sites.size() - options.max_groups, "more growing site", "more growing sites") +
             " in the report\n";
      break;
    }
    const SiteGrowth& g = *s.site;
    std::string where = "device " + std::to_string(s.device->device);
    if (s.device->pid && r.processes.size() > 1)
      where += s.device->rank >= 0 ? ", rank " + std::to_string(s.device->rank)
                                   : ", pid " + std::to_string(s.device->pid);
    out += "\n  " + where + ": " + site_words(g) + ": " + rise_words(g) +
           (g.fails_gate ? " [counted by the gate: fail_on_growth]" : "") +
           (g.suppressed_by.empty() ? "" : " [suppressed by " + g.suppressed_by + "]") + "\n";
    out += "    " + sparkline(g.history, 60) + "  " + format_bytes(g.history.empty() ? 0 : g.history.front()) + " -> " +
           format_bytes(g.level) + " over " + rise_length(g.history.size() * g.interval_ns) + "\n";
    out += stack_text(g.stack, options, g.api);
  }
  return out;
}

}  // namespace cudaleak::render
