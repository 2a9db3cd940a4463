// Growth by line: the same bounded histories as growth by site
// (track/site_growth.h), for the lines of the frameworks' own views. In a
// PyTorch process the CUDA sites are the caching allocator's segments, so a
// tensor leak by one line of the program shows only as segments growing;
// PyTorch's view (live tensors by Python stack), JAX's (live arrays by
// Python stack) and CuPy's (its pool's used bytes) name the line itself.
//
// Fed with each view the program sends, whenever it comes: a report, a
// snapshot signal, a checkpoint, a `top` frame while someone watches, or the
// periodic sample (view_interval_ms). A view is one observation of every
// line of its framework and device at that moment (lines it no longer lists
// held nothing); within a span the lowest observation counts, as the sites'
// lowest does. Nothing runs on the program's threads but the parsing of the
// view it sends, and no CUDA call is made here.
//
// Guarded by the views' mutex (python_view.h); nothing is allocated beyond
// kAxes tables of kLines lines.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "interpose/track/site_growth.h"
#include "report/model/report.h"

namespace cudaleak::line_growth {

// One line of a view: its Python stack (innermost first) and live bytes.
struct LineBytes {
  const std::vector<report::Frame>* stack;
  uint64_t bytes;
};

class Lines {
 public:
  static constexpr size_t kAxes = 16;    // (view, device) pairs
  static constexpr size_t kLines = 512;  // lines per axis; later ones are not followed

  // `interval_ns` is the first span of each axis (growth_interval_ms); 0
  // follows nothing.
  void configure(uint64_t interval_ns) { interval_ns_ = interval_ns; }
  // Every line of `view` on `device` at `time_ns` (tracker::elapsed_ns) with
  // `requests` counted so far.
  void observe(const std::string& view, int device, const std::vector<LineBytes>& lines, uint64_t time_ns,
               uint64_t requests);
  // The lines whose histories are kept, per device, as SiteGrowth with
  // `view`, stack, place and steadiness filled (no stack id).
  std::map<int, std::vector<report::SiteGrowth>> snapshot() const;
  void clear();

 private:
  struct Axis {
    std::string view;
    int device = 0;
    SiteGrowthTable table;
    uint64_t span_end = 0;
    std::unordered_map<std::string, uint32_t> slot_of;  // the stack's text -> slot
    std::vector<std::vector<report::Frame>> stacks;     // by slot
    std::vector<int64_t> low, bytes;                    // by slot: lowest within the open span, and now
  };
  Axis* axis(const std::string& view, int device, uint64_t time_ns, uint64_t requests);
  static void close(Axis& a, uint64_t time_ns, uint64_t requests);

  uint64_t interval_ns_ = 1'000'000'000;
  std::vector<std::unique_ptr<Axis>> axes_;
};

// Appends each device's lines to that device's growth in `timeline` (a
// device with lines but no CUDA site gets a timeline of its own).
void merge_into(report::Timeline& timeline, std::map<int, std::vector<report::SiteGrowth>> lines);

// The lines of each framework's view, as observe() takes them.
std::map<int, std::vector<LineBytes>> lines_of(const report::PyTorchView& view);
std::map<int, std::vector<LineBytes>> lines_of(const report::JaxView& view);

}  // namespace cudaleak::line_growth
