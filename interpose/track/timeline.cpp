#include "timeline.h"

#include <algorithm>

namespace cudaleak {

void Timeline::add(int device, Kind kind, uint32_t stack_id, int64_t delta, uint64_t time_ns) {
  if (delta == 0 || !kind_holds_memory(kind)) return;
  std::lock_guard lock(mutex_);
  Series& s = series_[device];
  s.now[size_t(kind)] += delta;
  s.total += delta;
  const uint64_t key = uint64_t(kind) << 32 | stack_id;
  auto& group = s.groups[key];
  group.first += delta;
  group.second += delta > 0 ? 1 : -1;
  if (group.second <= 0) s.groups.erase(key);
  if (s.total > int64_t(s.peak.bytes)) {
    s.peak.bytes = uint64_t(s.total);
    s.peak.time_ns = time_ns;
    s.peak.by_kind.clear();
    for (int k = 0; k < kKindCount; ++k)
      if (s.now[size_t(k)] > 0) s.peak.by_kind[std::string(kind_name(Kind(k)))] = uint64_t(s.now[size_t(k)]);
    if (s.total >= s.at_peak_total + s.at_peak_total / 20 || s.at_peak.empty()) {
      s.at_peak.clear();
      for (const auto& [key, live] : s.groups)
        s.at_peak.push_back(PeakGroup{Kind(key >> 32), uint32_t(key), uint64_t(live.first), uint64_t(live.second)});
      std::sort(s.at_peak.begin(), s.at_peak.end(), [](const PeakGroup& a, const PeakGroup& b) { return a.bytes > b.bytes; });
      if (s.at_peak.size() > kPeakGroups) s.at_peak.resize(kPeakGroups);
      s.at_peak_total = s.total;
    }
  }
  // Same span as the last point: update it; else a new point.
  if (!s.points.empty() && time_ns / s.resolution_ns == s.points.back().time_ns / s.resolution_ns) {
    s.points.back().bytes = s.now;
    s.points.back().max_total = std::max(s.points.back().max_total, s.total);
    return;
  }
  s.points.push_back(Point{time_ns, s.now, s.total});
  if (s.points.size() > kMaxPoints) compact(s);
}

void Timeline::compact(Series& s) {
  s.resolution_ns *= 2;
  std::vector<Point> merged;
  merged.reserve(s.points.size() / 2 + 1);
  for (const Point& p : s.points) {
    if (!merged.empty() && p.time_ns / s.resolution_ns == merged.back().time_ns / s.resolution_ns) {
      merged.back().bytes = p.bytes;
      merged.back().max_total = std::max(merged.back().max_total, p.max_total);
    } else {
      merged.push_back(p);
    }
  }
  s.points = std::move(merged);
}

report::Timeline Timeline::snapshot() const {
  std::lock_guard lock(mutex_);
  report::Timeline t;
  for (int k = 0; k < kKindCount; ++k)
    if (kind_holds_memory(Kind(k))) t.kinds.emplace_back(kind_name(Kind(k)));
  for (const auto& [device, s] : series_) {
    report::DeviceTimeline d;
    d.device = device;
    d.resolution_ns = s.resolution_ns;
    d.peak = s.peak;
    for (const Point& p : s.points) {
      report::TimelinePoint out{p.time_ns, {}, uint64_t(std::max<int64_t>(p.max_total, 0))};
      for (int k = 0; k < kKindCount; ++k)
        if (kind_holds_memory(Kind(k))) out.bytes.push_back(uint64_t(std::max<int64_t>(p.bytes[size_t(k)], 0)));
      d.points.push_back(std::move(out));
    }
    t.devices.push_back(std::move(d));
  }
  return t;
}

std::map<int, std::vector<Timeline::PeakGroup>> Timeline::peak_groups() const {
  std::lock_guard lock(mutex_);
  std::map<int, std::vector<PeakGroup>> out;
  for (const auto& [device, s] : series_) out[device] = s.at_peak;
  return out;
}

void Timeline::clear() {
  std::lock_guard lock(mutex_);
  series_.clear();
}

}  // namespace cudaleak
