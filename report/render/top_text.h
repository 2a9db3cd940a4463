// One frame of `cudaleak top` as text (docs/reading-reports.md#cudaleak-top): per
// process and device, live memory against the device's capacity where known,
// what caching allocators hold against what is in use, then the sites by
// live bytes with their growth, and the stack of the selected site.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "report/model/report.h"

namespace cudaleak::render {

// A device as NVML sees it (the `top` command reads it; empty when NVML is
// not there): its memory and the processes on it.
struct GpuUsage {
  int index = 0;  // NVML's index (PCI order; CUDA's ordinals may differ)
  uint64_t total = 0, used = 0;
  std::vector<std::pair<int, uint64_t>> processes;  // pid, bytes (UINT64_MAX unknown)
};

struct LiveProcess {
  int pid = 0;
  report::Report frame;  // as the process served it (live_server.h)
  std::string problem;   // why there is no frame
};

// A site of a frame: live bytes, its growth when its history was kept.
struct TopSite {
  int device = -1;
  Kind kind = Kind::Device;
  std::string api, where, cached_by;
  uint64_t bytes = 0;
  const report::SiteGrowth* growth = nullptr;
  const std::vector<report::Frame>* stack = nullptr;
};
enum class TopOrder { Bytes, Growth };
std::vector<TopSite> top_sites(const report::Report& frame, TopOrder order);

// "+3.3 MiB/min for 6 h 12 min" for a steady site, "flat" for one that did
// not grow, "fell" when its last span fell, "-" when no history was kept.
std::string growth_cell(const TopSite& site);

struct TopTextOptions {
  size_t max_sites = 15;
  TopOrder order = TopOrder::Bytes;
  int selected = 0;  // index of the site whose stack is shown (of the first process); -1: none
  size_t width = 120;
  bool ascii = false;  // the history in ASCII, for a terminal that cannot show U+2581-U+2588
};
std::string render_top(const std::vector<LiveProcess>& processes, const std::vector<GpuUsage>& gpus,
                       const TopTextOptions& options);

}  // namespace cudaleak::render
