// Growth by site: per device, a bounded history of each site's live bytes,
// sampled on the device's own allocations and frees (never by a timer), so
// that a slow leak is seen in a process that never fails.
//
// The timeline (timeline.h) keeps, per site, the lowest live bytes since the
// last sample (Site::low, one compare on the hot path). When a change comes
// after the sample's span ended, the timeline hands every site's lowest to
// close_span(): each site's rise (since its last fall) is brought up to date,
// for every site seen; and the kKeptSites most interesting ones (rising
// first, then the biggest) keep a history of kPoints spans on one time axis
// per device. When the axis is full its spans double and neighbouring points
// merge (keeping the lower), so the history covers the whole run in bounded
// space and sampling grows rarer as the run goes on.
//
// Everything here runs under the series' mutex; nothing allocates after
// start().
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "common/record/timeline.h"

namespace cudaleak {

class SiteGrowthTable {
 public:
  static constexpr size_t kKeptSites = 64;
  static constexpr size_t kPoints = 240;

  // A site's numbers at the end of a span: its slot in the timeline's site
  // table (< site_slots), key (kind + 1) << 32 | stack id, its lowest within
  // the span and its live bytes at its end.
  struct Sample {
    uint32_t slot;
    uint64_t key;
    int64_t low;
    int64_t bytes;
  };

  SiteGrowthTable() = default;
  SiteGrowthTable(const SiteGrowthTable&) = delete;
  SiteGrowthTable& operator=(const SiteGrowthTable&) = delete;
  ~SiteGrowthTable();

  // The first sample span begins at `time_ns`, `interval_ns` long; memory for
  // `site_slots` sites. False when the memory cannot be had: then nothing is
  // sampled.
  bool start(uint64_t time_ns, uint64_t interval_ns, size_t site_slots, uint64_t requests = 0);
  bool started() const { return started_; }
  // Where the span open at `time_ns` ends.
  uint64_t span_end(uint64_t time_ns) const;
  // Closes the span that ended at `end_ns` with these samples; the spans
  // between it and `now_ns` had no change, so they held each site's bytes.
  // `requests`: what the program counted so far (cudaleak_requests), so that
  // a rise can be put per request.
  void close_span(uint64_t end_ns, uint64_t now_ns, std::span<const Sample> samples, uint64_t requests = 0);

  // The kept sites with their histories and rises, stack ids unresolved;
  // `now` gives a site's lowest since the last sample and its live bytes now
  // (by timeline slot), so that a fall in the open span counts.
  void snapshot(std::vector<report::SiteGrowth>& out, const std::function<Sample(uint32_t slot)>& now) const;
  void stack_ids(std::vector<uint32_t>& out) const;
  void clear();

 private:
  // Per timeline slot: the site's current rise.
  struct Rise {
    int64_t level;  // lowest within the last span sampled
    int64_t bytes;  // live at the end of the last span sampled
    int64_t from;   // lowest when the rise began
    uint64_t since_ns;
    uint64_t last_rise_ns;
    uint32_t rises;
    uint16_t kept;  // index in kept_ + 1; 0: no history kept
    bool seen;
  };
  struct Kept {
    uint64_t key;
    uint32_t slot;
    uint32_t first;  // the axis index of values[first], the first span kept
    int64_t values[kPoints];
  };

  void update_rise(Rise& r, int64_t value, uint64_t span_start, uint64_t span_end);
  void record(Kept& k, uint64_t index, int64_t value);
  void admit(const Sample& s, uint64_t index);
  void compact();
  static bool rising(const Rise& r) { return r.rises >= 2 && r.level > r.from; }
  bool stronger(const Rise& a, const Rise& b) const;
  // Requests counted from the span that holds `since_ns` to the last written.
  uint64_t requests_since(uint64_t since_ns) const;

  Rise* streaks_ = nullptr;  // site_slots
  size_t site_slots_ = 0;
  Kept* kept_ = nullptr;  // kKeptSites
  size_t kept_count_ = 0;
  uint64_t origin_ns_ = 0;
  uint64_t interval_ns_ = 0;
  uint64_t written_ = 0;  // spans of the axis written so far (kept sites have values from `first` up to it)
  // Requests counted by the end of each span of the axis (read when it
  // closed), and before the first.
  uint64_t requests_[kPoints] = {};
  uint64_t requests_at_start_ = 0;
  bool started_ = false;
};

}  // namespace cudaleak
