#include "report/render/top_text.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>

#include "common/kinds.h"
#include "common/quantities.h"
#include "report/model/site_growth.h"
#include "report/model/place_name.h"
#include "report/render/growth_text.h"

namespace cudaleak::render {

using namespace report;  // the model this renderer reads


namespace {

bool same_site(const LeakGroup& g, const SiteGrowth& s, int device) {
  if (!s.view.empty()) return false;  // a line of a framework's view, not a CUDA site
  if (g.device != device || g.kind != s.kind || g.stack.size() != s.stack.size()) return false;
  for (size_t i = 0; i < g.stack.size(); ++i)
    if (g.stack[i].ip != s.stack[i].ip || g.stack[i].function != s.stack[i].function) return false;
  return true;
}

double per_minute(const TopSite& s) { return s.growth && s.growth->steady ? rise_per_minute(*s.growth) : 0; }

std::string ascii_sparkline(const std::vector<uint64_t>& values, size_t width) {
  static const char kLevels[] = "_.-=+*#@";
  std::string out;
  // The same columns as sparkline(): each block (3 bytes of UTF-8) becomes one level.
  const std::string blocks = sparkline(values, width);
  for (size_t i = 0; i + 2 < blocks.size(); i += 3)
    out += kLevels[(static_cast<unsigned char>(blocks[i + 2]) - 0x81) & 7];
  return out;
}

std::string fit(std::string text, size_t width) {
  if (text.size() > width) text = text.substr(0, width > 3 ? width - 3 : 0) + "...";
  return text;
}

}  // namespace

std::vector<TopSite> top_sites(const Report& frame, TopOrder order) {
  std::vector<TopSite> out;
  std::vector<const SiteGrowth*> matched;
  for (const LeakGroup& g : frame.leaks) {
    if (!kind_holds_memory(g.kind) || !g.released_by.empty()) continue;
    TopSite s{g.device, g.kind, g.api, where_of(g.stack, g.api), g.cached_by, g.bytes, nullptr, &g.stack};
    for (const DeviceTimeline& d : frame.timeline.devices)
      for (const SiteGrowth& growth : d.growth)
        if (same_site(g, growth, d.device)) {
          s.growth = &growth;
          s.where = growth.where;
          matched.push_back(&growth);
        }
    out.push_back(std::move(s));
  }
  // A site that grew and then gave everything back has no live group: its
  // history is still worth a row. Every line of a framework's view has one
  // (the live tensors by line under the allocator's segments).
  for (const DeviceTimeline& d : frame.timeline.devices)
    for (const SiteGrowth& growth : d.growth)
      if (std::find(matched.begin(), matched.end(), &growth) == matched.end() &&
          (growth.steady || !growth.view.empty()))
        out.push_back(TopSite{d.device, growth.kind, growth.view.empty() ? growth.api : view_words(growth.view),
                              growth.where, "", growth.bytes, &growth, &growth.stack});
  std::stable_sort(out.begin(), out.end(), [order](const TopSite& a, const TopSite& b) {
    if (order == TopOrder::Growth && per_minute(a) != per_minute(b)) return per_minute(a) > per_minute(b);
    return a.bytes > b.bytes;
  });
  return out;
}

std::string growth_cell(const TopSite& s) {
  if (!s.growth) return "-";
  const SiteGrowth& g = *s.growth;
  if (g.steady && g.rise_requests)
    return "+" + format_bytes(uint64_t(double(rise_bytes(g)) * 1000.0 / double(g.rise_requests))) + "/1k req, +" +
           format_bytes(uint64_t(rise_per_minute(g))) + "/min";
  if (g.steady)
    return "+" + format_bytes(uint64_t(rise_per_minute(g))) + "/min for " + rise_length(rise_duration_ns(g));
  if (g.rises == 0 && g.since_bytes == g.level && g.history.size() > 1 && g.history.front() > g.level) return "fell";
  return "flat";
}

std::string render_top(const std::vector<LiveProcess>& processes, const std::vector<GpuUsage>& gpus,
                       const TopTextOptions& options) {
  std::string out;
  char line[512];
  for (const GpuUsage& gpu : gpus) {
    std::snprintf(line, sizeof line, "GPU %d (NVML): %s used of %s", gpu.index, format_bytes(gpu.used).c_str(),
                  format_bytes(gpu.total).c_str());
    out += line;
    std::string others;
    for (const auto& [pid, bytes] : gpu.processes) {
      // A copy for the lambda: clang before 16 cannot capture a structured binding.
      const auto process_id = pid;
      const bool watched = std::any_of(processes.begin(), processes.end(),
                                       [&](const LiveProcess& p) { return p.pid == process_id; });
      others += (others.empty() ? "" : ", ") + std::to_string(pid) + (watched ? "*" : "") + " " +
                (bytes == UINT64_MAX ? std::string("?") : format_bytes(bytes));
    }
    out += others.empty() ? "\n" : "; processes (* watched): " + others + "\n";
  }
  bool first = true;
  for (const LiveProcess& p : processes) {
    if (!first || !gpus.empty()) out += "\n";
    const Report& r = p.frame;
    if (!p.problem.empty()) {
      out += "pid " + std::to_string(p.pid) + ": " + p.problem + "\n";
      first = false;
      continue;
    }
    std::string exe = r.process.exe.substr(r.process.exe.rfind('/') + 1);
    out += "pid " + std::to_string(p.pid) + (r.process.rank >= 0 ? " rank " + std::to_string(r.process.rank) : "") +
           " " + exe + ", up " + rise_length(r.duration_ns) + "\n";
    for (const DeviceTimeline& d : r.timeline.devices) {
      uint64_t live = 0;
      if (!d.points.empty())
        for (uint64_t b : d.points.back().bytes) live += b;
      out += "  device " + std::to_string(d.device) + ": " + format_bytes(live) + " live, peak " +
             format_bytes(d.peak.bytes);
      std::string cachers;
      for (const auto& [name, t] : r.summary.cached_by) cachers = name;
      if (!r.summary.cached_by.empty()) {
        uint64_t reserved = 0;
        for (const auto& [name, t] : r.summary.cached_by) reserved += t.bytes;
        out += "; " + format_bytes(reserved) + " reserved by " + cachers;
        if (r.has_pytorch)
          for (const AllocatorDevice& a : r.pytorch.devices)
            if (a.device == d.device) out += ", " + format_bytes(a.allocated) + " of it in use (PyTorch's last view)";
      }
      out += "\n";
    }
    const std::vector<TopSite> sites = top_sites(r, options.order);
    std::snprintf(line, sizeof line, "  %3s %-3s %10s  %-28s  %s\n", "#", "dev", "live", "growth", "site");
    out += line;
    for (size_t i = 0; i < sites.size() && i < options.max_sites; ++i) {
      const TopSite& s = sites[i];
      std::string site = (s.api.empty() ? "" : s.api + " at ") + s.where;
      if (!s.cached_by.empty()) site += " [" + s.cached_by + "]";
      // The selected site's row is marked, for the interactive view to highlight.
      const bool marked = first && options.selected >= 0 && size_t(options.selected) == i;
      std::snprintf(line, sizeof line, "%s%3zu %3d %10s  %-28s  ", marked ? "> " : "  ", i, s.device,
                    format_bytes(s.bytes).c_str(), growth_cell(s).c_str());
      out += line + fit(site, options.width > 52 ? options.width - 52 : 20) + "\n";
    }
    if (first && options.selected >= 0 && size_t(options.selected) < sites.size()) {
      const TopSite& s = sites[size_t(options.selected)];
      out += "  stack of site " + std::to_string(options.selected) + ":\n";
      if (s.growth && !s.growth->history.empty())
        out += "    " + (options.ascii ? ascii_sparkline(s.growth->history, 60) : sparkline(s.growth->history, 60)) +
               "  " + format_bytes(s.growth->history.front()) + " -> " + format_bytes(s.growth->level) + "\n";
      for (size_t i = 0; s.stack && i < s.stack->size() && i < 12; ++i) {
        const Frame& f = (*s.stack)[i];
        std::string where = f.file.empty() ? std::string(f.module) : std::string(f.file) + ":" + std::to_string(f.line);
        out += "    #" + std::to_string(i) + " " +
               fit((f.function.empty() ? "?" : std::string(f.function)) + " " + where, options.width - 8) + "\n";
      }
    }
    first = false;
  }
  return out;
}

}  // namespace cudaleak::render
