// Live bytes over time, per device and memory kind, in bounded space whatever
// the run length: at most kMaxPoints points per device; when full, the time
// resolution doubles and neighbouring points merge (each keeps the highest
// total seen in its span). The peak is tracked exactly, apart from the points.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "kinds.h"
#include "report.h"

namespace cudaleak {

class Timeline {
 public:
  static constexpr size_t kMaxPoints = 512;

  // A change of `delta` bytes of `kind` on `device` at `time_ns`, by the
  // resource created at stack `stack_id` (count +1 or -1 with the sign of delta).
  void add(int device, Kind kind, uint32_t stack_id, int64_t delta, uint64_t time_ns);
  report::Timeline snapshot() const;
  // The groups live at each device's peak, by (kind, stack id), biggest first.
  struct PeakGroup {
    Kind kind;
    uint32_t stack_id;
    uint64_t bytes, count;
  };
  std::map<int, std::vector<PeakGroup>> peak_groups() const;
  void clear();
  std::mutex& mutex() { return mutex_; }  // for the fork protocol

 private:
  struct Point {
    uint64_t time_ns;
    std::array<int64_t, kKindCount> bytes;  // at the end of the point's span
    int64_t max_total;                      // highest total within the span
  };
  struct Series {
    std::array<int64_t, kKindCount> now{};
    int64_t total = 0;
    uint64_t resolution_ns = 1000;  // 1 us to start with; doubles as the run goes on
    std::vector<Point> points;
    report::Peak peak;
    // Live bytes and count per (kind, stack), and their copy at the peak. The
    // copy is refreshed when the peak grows by 5%: bounded work however many
    // allocations, and the groups of a moment within 5% of the exact peak.
    struct GroupHash {
      size_t operator()(uint64_t key) const { return size_t(key * 0x9e3779b97f4a7c15ull >> 17); }
    };
    // (kind << 32 | stack id) -> live bytes, live count
    std::unordered_map<uint64_t, std::pair<int64_t, int64_t>, GroupHash> groups;
    std::vector<PeakGroup> at_peak;
    int64_t at_peak_total = 0;
  };
  static constexpr size_t kPeakGroups = 10;
  void compact(Series& s);

  mutable std::mutex mutex_;
  std::map<int, Series> series_;
};

}  // namespace cudaleak
