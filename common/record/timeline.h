// Memory over time as the tracker keeps it and the report lists it
// (docs/report-format.md#timeline): the tracker's timeline (interpose/track/
// timeline.h) fills these while the program runs, and the report carries
// them unchanged (Report::timeline), so they sit on the floor under both.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/enum_names.h"
#include "common/kinds.h"
#include "common/record/frame.h"

namespace cudaleak::report {

// Memory over time (docs/report-format.md#timeline).
struct PeakGroup {
  Kind kind = Kind::Device;
  std::string api, where;
  uint64_t bytes = 0, count = 0;
  std::vector<Frame> stack;
  bool operator==(const PeakGroup&) const = default;
};

struct Peak {
  uint64_t time_ns = 0;
  uint64_t bytes = 0;  // all memory kinds together
  std::map<Kind, uint64_t> by_kind;
  std::vector<PeakGroup> groups;  // live at (within 5% of) the peak, biggest first
  bool operator==(const Peak&) const = default;
};

struct TimelinePoint {
  uint64_t time_ns = 0;
  std::vector<uint64_t> bytes;  // one per Timeline::kinds, at the end of the point's span
  uint64_t max_total = 0;       // highest total within the span
  bool operator==(const TimelinePoint&) const = default;
};

// A site (kind and stack) that was among the biggest of some point.
struct TimelineSite {
  Kind kind = Kind::Device;
  std::string api, where;
  uint64_t peak_bytes = 0;  // the most it held at any point
  std::vector<Frame> stack;
  bool operator==(const TimelineSite&) const = default;
};

// A site's live bytes over the run (docs/report-format.md#timeline), sampled
// on its device's allocations and frees: each span of the history keeps the
// lowest the site held within it, so that memory a site takes and gives back
// within a span (a step's buffers) does not count as growth, and memory it
// never gives back does. The tracker keeps the biggest and the rising sites.
struct SiteGrowth {
  Kind kind = Kind::Device;
  std::string api, where;
  uint64_t bytes = 0;             // live at the report
  uint64_t level = 0;             // the lowest within the last span sampled
  uint64_t since_ns = 0;          // when its current rise began: its last fall, or when first sampled
  uint64_t since_bytes = 0;       // its lowest then
  uint64_t last_rise_ns = 0;      // the end of the last span whose lowest rose
  uint64_t rises = 0;             // spans whose lowest rose since since_ns
  uint64_t history_ns = 0;        // the start of history[0]'s span
  uint64_t interval_ns = 0;       // the length of each span
  std::vector<uint64_t> history;  // lowest live bytes within each span, oldest first
  bool steady = false;            // grew steadily to now and never fell (report/model/site_growth.h)
  // Requests the program counted (cudaleak_requests) over the rise; 0: none counted.
  uint64_t rise_requests = 0;
  // Not a CUDA call site but a line of a framework's view ("pytorch": live
  // tensors by Python stack, "jax": live arrays by Python stack, "cupy": the
  // memory pool's used bytes), its history fed by each view the program sent
  // (interpose/runtime/line_growth.h); empty for a site.
  std::string view;
  // Added by the gate when it ran (fail_on_growth).
  std::string site;
  std::string suppressed_by;
  BaselineState baseline = BaselineState::None;
  bool fails_gate = false;
  std::vector<Frame> stack;
  uint32_t stack_id = 0;  // process-local interned stack; not written
  bool operator==(const SiteGrowth&) const = default;
};

struct DeviceTimeline {
  int pid = 0;  // in merged reports
  int device = 0;
  uint64_t resolution_ns = 0;
  Peak peak;
  std::vector<TimelinePoint> points;
  // The biggest sites of each point (at most 8), one list per point, as
  // (index in sites, bytes) at the end of the point's span. Empty in reports
  // that have none.
  std::vector<TimelineSite> sites;
  std::vector<std::vector<std::pair<uint32_t, uint64_t>>> site_points;
  std::vector<SiteGrowth> growth;  // the sites whose histories were kept, biggest and rising first
  int rank = -1;                   // in merged reports, the rank of the process (pid)
  // The device's UUID ("GPU-2f4d...", NVML's form): ordinals are per process
  // (CUDA_VISIBLE_DEVICES), so ranks that all say device 0 may be on many
  // GPUs. Empty where it was not read (crash captures, older reports).
  std::string uuid;
  bool operator==(const DeviceTimeline&) const = default;
};

// A moment the program marked: a checkpoint it named (cudaleak_checkpoint or
// cudaleak_report) or a snapshot report asked for by a signal.
struct TimelineMark {
  uint64_t time_ns = 0;
  MarkType type = MarkType::Checkpoint;
  std::string name;  // the checkpoint's name; empty for snapshots
  int pid = 0;       // in merged reports
  bool operator==(const TimelineMark&) const = default;
};

struct Timeline {
  std::vector<Kind> kinds;
  std::vector<DeviceTimeline> devices;
  std::vector<TimelineMark> marks;  // oldest first
  bool operator==(const Timeline&) const = default;
};


}  // namespace cudaleak::report
