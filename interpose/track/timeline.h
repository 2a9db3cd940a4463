// Live bytes over time, per device and memory kind, in bounded space whatever
// the run length: at most kMaxPoints points per device; when full, the time
// resolution doubles and neighbouring points merge (each keeps the highest
// total seen in its span). The peak is tracked exactly, apart from the points.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

#include "kinds.h"
#include "report.h"

namespace cudaleak {

class Timeline {
 public:
  static constexpr size_t kMaxPoints = 512;

  // A change of `delta` bytes of `kind` on `device` at `time_ns`.
  void add(int device, Kind kind, int64_t delta, uint64_t time_ns);
  report::Timeline snapshot() const;
  void clear();

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
  };
  void compact(Series& s);

  mutable std::mutex mutex_;
  std::map<int, Series> series_;
};

}  // namespace cudaleak
