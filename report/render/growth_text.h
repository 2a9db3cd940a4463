// Growth by site in words: the sites of a report's timelines that grew
// steadily (report/model/site_growth.h), biggest rise first, each with its
// rise ("grew steadily for 6 h 12 min, +1.2 GiB (+3.3 MiB per minute), never
// fell"), its history as a sparkline and its stack.
#pragma once
#include <string>
#include <vector>

#include "report/model/report.h"
#include "report/render/text_options.h"

namespace cudaleak::render {

struct GrowingSite {
  const report::SiteGrowth* site;
  const report::DeviceTimeline* device;
};
// The steady ones, biggest rise first.
std::vector<GrowingSite> growing_sites(const report::Report& report);

// "6 h 12 min", "3 min 05 s", "8 s": a rise's length, to the unit that reads.
std::string rise_length(uint64_t ns);
// "+90.0 MiB per minute", with "+3.3 MiB per 1,000 requests, " before it
// where the program counted requests (cudaleak_requests).
std::string rise_rates(const report::SiteGrowth& g);
// "grew steadily for 8 s, +12.0 MiB (+90.0 MiB per minute), never fell"
std::string rise_words(const report::SiteGrowth& g);
// What a line of a framework's view counts: "PyTorch's live tensors".
std::string view_words(const std::string& view);
// "12.0 MiB of device memory by cudaMalloc at leak_slowly (slow_leak.cu:14)"
std::string site_words(const report::SiteGrowth& g);
// The history in `width` block characters (U+2581-U+2588), lowest to highest.
std::string sparkline(const std::vector<uint64_t>& values, size_t width);

// The section the text report prints; empty when no site grew.
std::string render_growth(const report::Report& report, const TextOptions& options);

}  // namespace cudaleak::render
